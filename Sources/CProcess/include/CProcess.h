#ifndef COURSEBOOK_CPROCESS_H
#define COURSEBOOK_CPROCESS_H

#include <spawn.h>
#include <sys/types.h>

/// pipe2(fds, O_CLOEXEC): glibc declares it only under _GNU_SOURCE, which Swift's Glibc
/// module does not set.
int coursebook_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np, hidden from Swift for the same reason.
int coursebook_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// prctl(PR_SET_CHILD_SUBREAPER, 1): a descendant whose parent dies becomes this process's
/// child, not init's, so that it can be found and ended. prctl is variadic, which Swift cannot
/// call.
int coursebook_become_subreaper(void);

/// pidfd_open(pid, 0): a descriptor that poll reports readable when the process ends; -1
/// where the kernel has none.
int coursebook_pidfd_open(pid_t pid);

/// posix_spawn_file_actions_addclosefrom_np: the child starts with no descriptor from
/// `lowest` up, whatever this process inherited.
int coursebook_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int lowest);

/// personality(2) of the calling thread with ADDR_NO_RANDOMIZE added (as `setarch -R`): a
/// program it starts from now on lays out its memory the same way on every run, so that an
/// address it prints is the same every time. Returns the persona before, or -1.
int coursebook_disable_address_randomization(void);

/// Gives the calling thread back the persona `coursebook_disable_address_randomization` returned.
void coursebook_restore_personality(int persona);

#endif
