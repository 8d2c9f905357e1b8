#ifndef COURSEBOOK_CPROCESS_H
#define COURSEBOOK_CPROCESS_H

#include <spawn.h>

/// pipe2(fds, O_CLOEXEC): glibc declares it only under _GNU_SOURCE, which Swift's Glibc
/// module does not set.
int coursebook_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addchdir_np, hidden from Swift for the same reason.
int coursebook_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

#endif
