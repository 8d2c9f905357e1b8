#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CProcess.h"

int coursebook_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int coursebook_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int coursebook_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

int coursebook_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    return -1;
#endif
}

int coursebook_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int coursebook_disable_address_randomization(void) {
    int persona = personality(0xffffffff);
    if (persona < 0 || personality((unsigned long)persona | ADDR_NO_RANDOMIZE) < 0) return -1;
    return persona;
}

void coursebook_restore_personality(int persona) {
    if (persona >= 0) personality((unsigned long)persona);
}
