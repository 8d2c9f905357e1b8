// coursebook-launcher STATUS_FD PROGRAM [ARGUMENT ...]
//
// Starts a program of one scenario and says how it ended. The program runs as this launcher's
// child, in a process group of its own, and dies if the launcher dies. When it has ended, every
// process it left behind is ended too (in the sandbox the launcher is the process 1 of the PID
// namespace and ends all others; outside, it is the subreaper of the program's descendants),
// and then the launcher writes "e<status>" (it exited) or "s<signal>" (a signal ended it) to
// STATUS_FD, which the program never sees. An exit status alone cannot tell a trap (SIGILL)
// from exit(132) once it has passed through bubblewrap.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/// Ends and waits for every child of this process; repeats while ending one orphans others.
static void end_children(void) {
    for (int round = 0; round < 64; round++) {
        DIR *proc = opendir("/proc");
        if (proc == NULL) return;
        pid_t me = getpid();
        pid_t found[4096];
        int count = 0;
        struct dirent *entry;
        while ((entry = readdir(proc)) != NULL && count < 4096) {
            char *end;
            long pid = strtol(entry->d_name, &end, 10);
            if (*end != '\0' || pid <= 0 || pid == me) continue;
            char path[64], line[1024];
            snprintf(path, sizeof path, "/proc/%ld/stat", pid);
            FILE *file = fopen(path, "r");
            if (file == NULL) continue;
            char *read = fgets(line, sizeof line, file);
            fclose(file);
            if (read == NULL) continue;
            // "pid (name) state ppid ...": the name may hold spaces and parentheses.
            char *close = strrchr(line, ')');
            char state;
            long parent;
            if (close != NULL && sscanf(close + 1, " %c %ld", &state, &parent) == 2 && parent == me) {
                found[count++] = (pid_t)pid;
            }
        }
        closedir(proc);
        if (count == 0) return;
        for (int i = 0; i < count; i++) kill(found[i], SIGKILL);
        for (int i = 0; i < count; i++) {
            while (waitpid(found[i], NULL, 0) < 0 && errno == EINTR) {}
        }
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: coursebook-launcher STATUS_FD PROGRAM [ARGUMENT ...]\n");
        return 125;
    }
    int status_fd = atoi(argv[1]);
    if (status_fd < 3 || fcntl(status_fd, F_SETFD, FD_CLOEXEC) != 0) return 125;
    int is_init = getpid() == 1;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (!is_init) prctl(PR_SET_CHILD_SUBREAPER, 1);

    pid_t child = fork();
    if (child < 0) return 125;
    if (child == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        // The same memory layout on every run (as `setarch -R`): an address the program
        // prints is the same every time.
        int persona = personality(0xffffffff);
        if (persona >= 0) personality((unsigned long)persona | ADDR_NO_RANDOMIZE);
        execv(argv[2], argv + 2);
        fprintf(stderr, "coursebook-launcher: cannot start %s: %s\n", argv[2], strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) return 125;
    }
    if (is_init) {
        kill(-1, SIGKILL);
        while (wait(NULL) > 0 || errno == EINTR) {}
    } else {
        kill(-child, SIGKILL);
        end_children();
    }
    if (WIFSIGNALED(status)) {
        dprintf(status_fd, "s%d", WTERMSIG(status));
    } else {
        dprintf(status_fd, "e%d", WEXITSTATUS(status));
    }
    return 0;
}
