// coursebook-launcher [LIMIT ...] STATUS_FD PROGRAM [ARGUMENT ...]
//
// Starts a scenario program (a program of one scenario, a batch program, or a compiler job)
// and says how it ended. The program runs as this launcher's child, in a process group of its
// own, and dies if the launcher dies. When it has ended, every process it left behind is ended
// too (in the sandbox the launcher is the process 1 of the PID namespace and ends all others;
// outside, it is the subreaper of the program's descendants), and then the launcher writes
// "e<status>" (it exited) or "s<signal>" (a signal ended it) to STATUS_FD, which the program
// never sees. An exit status alone cannot tell a trap (SIGILL) from exit(132) once it has
// passed through bubblewrap.
//
// The limits, each also a resource limit of the program that the kernel holds to:
//   --memory BYTES     RLIMIT_DATA of every process; in the sandbox also all processes
//                      together (anonymous and shared memory, SysV segments no one maps)
//   --total-memory BYTES  in the sandbox, all processes together instead (a compiler's jobs)
//   --processes N      RLIMIT_NPROC (processes and threads); in the sandbox, all of them
//   --files N          RLIMIT_NOFILE of every process
//   --file-size BYTES  RLIMIT_FSIZE: no file grows past it (SIGXFSZ)
//   --space PATH       in the sandbox: the file system at PATH (a tmpfs) must not fill up
// In the sandbox, where the program cannot see this process (it is not dumpable, so no
// process of the namespace can open /proc/1/fd or its memory), the launcher looks every 50 ms
// at what the namespace holds; a program that has reached a limit is stopped with all its
// processes and the launcher writes "l" and the limit's name ("lmemory", "lprocesses",
// "lfiles", "lspace /tmp") instead of how it ended. Core dumps are off (RLIMIT_CORE 1, which
// also stops a core_pattern pipe on the host from running for a crash in here).
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_SPACES 8

/// The limits given on the command line; 0 (or no path) for none.
struct limits {
    unsigned long long memory;
    unsigned long long total_memory;
    unsigned long long processes;
    unsigned long long files;
    unsigned long long file_size;
    const char *spaces[MAX_SPACES];
    int space_count;
};

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

/// The number after `label` in a /proc/PID/status text ("Threads:", "RssAnon:" ...), or 0.
static unsigned long long status_field(const char *text, const char *label) {
    const char *found = strstr(text, label);
    return found == NULL ? 0 : strtoull(found + strlen(label), NULL, 10);
}

/// How many descriptors the process has open; 0 when its folder cannot be read.
static unsigned long long open_files(long pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd", pid);
    DIR *folder = opendir(path);
    if (folder == NULL) return 0;
    unsigned long long count = 0;
    struct dirent *entry;
    while ((entry = readdir(folder)) != NULL) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(folder);
    return count;
}

/// Bytes of SysV shared memory segments that no process has attached (an attached one shows
/// in its processes' RssShmem): memory a process could otherwise leave behind unseen.
static unsigned long long detached_segments(void) {
    FILE *file = fopen("/proc/sysvipc/shm", "r");
    if (file == NULL) return 0;
    char line[512];
    unsigned long long total = 0;
    if (fgets(line, sizeof line, file) != NULL) {
        while (fgets(line, sizeof line, file) != NULL) {
            // key shmid perms size cpid lpid nattch uid gid cuid cgid atime dtime ctime rss swap
            unsigned long long field[16];
            int read = sscanf(line, "%llu %llu %llo %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
                              &field[0], &field[1], &field[2], &field[3], &field[4], &field[5], &field[6], &field[7],
                              &field[8], &field[9], &field[10], &field[11], &field[12], &field[13], &field[14], &field[15]);
            if (read >= 15 && field[6] == 0) total += field[14];
        }
    }
    fclose(file);
    return total;
}

/// The text of /proc/PID/NAME (at most `size` - 1 bytes), or 0 bytes when it cannot be read.
static ssize_t read_proc(long pid, const char *name, char *text, size_t size) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/%s", pid, name);
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return 0;
    ssize_t length = read(descriptor, text, size - 1);
    close(descriptor);
    if (length < 0) length = 0;
    text[length] = '\0';
    return length;
}

/// The memory a process holds: its anonymous and shared (tmpfs, SysV) pages, with pages it
/// shares with other processes (a fork's, before either writes them) divided among them, as
/// the kernel's proportional set size counts them; its resident size where that cannot be read.
static unsigned long long proportional_memory(long pid, unsigned long long resident) {
    char text[2048];
    if (read_proc(pid, "smaps_rollup", text, sizeof text) == 0 || strstr(text, "Pss_Anon:") == NULL) return resident;
    return (status_field(text, "Pss_Anon:") + status_field(text, "Pss_Shmem:")) * 1024;
}

/// Which limit the namespace has reached ("memory", "processes", "files", "space PATH"), or
/// NULL. The launcher counts as one of the processes, as the kernel counts it, and so does a
/// scenario's process that has just ended (`ended`: 1 when it is looked at at its end, with
/// what it left behind). Memory is summed
/// from each process's resident size first (cheap), and only past the limit from the
/// proportional sizes, which do not count a page that forked processes share once per process.
static const char *reached(const struct limits *limits, int ended, char *buffer, size_t size) {
    DIR *proc = opendir("/proc");
    if (proc == NULL) return NULL;
    pid_t me = getpid();
    static long pids[4096];
    static unsigned long long resident[4096];
    int count = 0;
    unsigned long long tasks = 1 + (unsigned long long)ended, memory = 0, most_files = 0;
    struct dirent *entry;
    char text[4096];
    while ((entry = readdir(proc)) != NULL) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        if (*end != '\0' || pid <= 0 || pid == me || read_proc(pid, "status", text, sizeof text) == 0) continue;
        unsigned long long held = (status_field(text, "RssAnon:") + status_field(text, "RssShmem:")) * 1024;
        tasks += status_field(text, "Threads:");
        memory += held;
        if (count < 4096) { pids[count] = pid; resident[count] = held; count++; }
        if (limits->files > 0) {
            unsigned long long files = open_files(pid);
            if (files > most_files) most_files = files;
        }
    }
    closedir(proc);
    if (limits->processes > 0 && tasks >= limits->processes) return "processes";
    unsigned long long total = limits->total_memory > 0 ? limits->total_memory : limits->memory;
    if (total > 0) {
        memory += detached_segments();
        if (memory > total) {
            unsigned long long proportional = detached_segments();
            for (int i = 0; i < count; i++) proportional += proportional_memory(pids[i], resident[i]);
            if (proportional > total) return "memory";
        }
    }
    if (limits->files > 0 && most_files >= limits->files) return "files";
    for (int i = 0; i < limits->space_count; i++) {
        struct statvfs space;
        if (statvfs(limits->spaces[i], &space) == 0 && space.f_blocks > 0 && space.f_bavail == 0) {
            snprintf(buffer, size, "space %s", limits->spaces[i]);
            return buffer;
        }
    }
    return NULL;
}

/// Sets a resource limit, soft and hard, so that the program cannot raise it again.
static void set_limit(int resource, unsigned long long value) {
    struct rlimit limit = { .rlim_cur = value, .rlim_max = value };
    setrlimit(resource, &limit);
}

/// Reads the limit options; returns the index of STATUS_FD, or -1 for a wrong command line.
static int read_limits(int argc, char **argv, struct limits *limits, int *batch) {
    int index = 1;
    while (index + 1 < argc && strncmp(argv[index], "--", 2) == 0) {
        if (strcmp(argv[index], "--batch") == 0) {
            *batch = 1;
            index += 1;
            continue;
        }
        const char *name = argv[index], *value = argv[index + 1];
        char *end;
        unsigned long long number = strtoull(value, &end, 10);
        if (strcmp(name, "--space") == 0) {
            if (limits->space_count == MAX_SPACES) return -1;
            limits->spaces[limits->space_count++] = value;
        } else if (*end != '\0' || number == 0) {
            return -1;
        } else if (strcmp(name, "--memory") == 0) {
            limits->memory = number;
        } else if (strcmp(name, "--total-memory") == 0) {
            limits->total_memory = number;
        } else if (strcmp(name, "--processes") == 0) {
            limits->processes = number;
        } else if (strcmp(name, "--files") == 0) {
            limits->files = number;
        } else if (strcmp(name, "--file-size") == 0) {
            limits->file_size = number;
        } else {
            return -1;
        }
        index += 2;
    }
    return index + 1 < argc ? index : -1;
}

/// The descriptors through which a batch program asks, at the end of each scenario's process
/// and before it ends that scenario's leftovers, whether the scenario reached a limit: it
/// writes a byte to 3 and reads the answer from 4 ("k": go on); a scenario at a limit is never
/// answered, since the launcher stops the whole program. (A program of one scenario is looked
/// at once more when it ends, at the same moment of its life.)
enum { ASK_FD = 3, ANSWER_FD = 4 };

/// In the child, before the program starts: its own group, death with the launcher, the
/// signal mask it would have had, the limits, and for a batch the question descriptors.
static void start_program(const struct limits *limits, const sigset_t *mask, const int ask[2],
                          const int answer[2], char **argv) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    sigprocmask(SIG_SETMASK, mask, NULL);
    if (ask[1] >= 0) {
        if (dup2(ask[1], ASK_FD) < 0 || dup2(answer[0], ANSWER_FD) < 0) _exit(127);
        close_range(ANSWER_FD + 1, ~0U, 0);
    }
    set_limit(RLIMIT_CORE, 1);
    if (limits->memory > 0) set_limit(RLIMIT_DATA, limits->memory);
    if (limits->processes > 0) set_limit(RLIMIT_NPROC, limits->processes);
    if (limits->files > 0) set_limit(RLIMIT_NOFILE, limits->files);
    if (limits->file_size > 0) set_limit(RLIMIT_FSIZE, limits->file_size);
    execv(argv[0], argv);
    fprintf(stderr, "coursebook-launcher: cannot start %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/// Waits for the program to end, looking at the namespace every 50 ms and whenever the batch
/// program asks; returns the limit it reached, or NULL with its wait status in `status`.
static const char *watch(pid_t child, const struct limits *limits, int watching, int events, int ask,
                         int answer, int *status, char *buffer, size_t size) {
    struct pollfd waits[2] = { { .fd = events, .events = POLLIN }, { .fd = ask, .events = POLLIN } };
    for (;;) {
        // Orphans of the namespace come to process 1: they are waited for as they end, as the
        // system's init waits for a program's orphans.
        pid_t ended;
        int ended_status = 0;
        while ((ended = waitpid(-1, &ended_status, WNOHANG)) > 0) {
            if (ended == child) {
                *status = ended_status;
                // Its leftovers are still there: seen at its end, as a batch's scenario is.
                return watching ? reached(limits, 1, buffer, size) : NULL;
            }
        }
        if (ended < 0 && errno == ECHILD) return NULL;
        const char *limit = watching ? reached(limits, 0, buffer, size) : NULL;
        if (limit != NULL) return limit;
        if (poll(waits, waits[1].fd >= 0 ? 2 : 1, watching ? 50 : -1) < 0 && errno != EINTR) return NULL;
        if (waits[0].revents) {
            struct signalfd_siginfo information;
            while (read(events, &information, sizeof information) > 0) {}
        }
        if (waits[1].fd >= 0 && waits[1].revents) {
            char question;
            if (read(ask, &question, 1) != 1) {
                waits[1].fd = -1;
            } else if ((limit = reached(limits, 1, buffer, size)) != NULL) {
                return limit;
            } else if (write(answer, "k", 1) != 1) {
                waits[1].fd = -1;
            }
        }
    }
}

int main(int argc, char **argv) {
    struct limits limits = { 0 };
    int batch = 0;
    int first = read_limits(argc, argv, &limits, &batch);
    if (first < 0) {
        fprintf(stderr, "usage: coursebook-launcher [--memory BYTES] [--total-memory BYTES] [--processes N] [--files N] [--file-size BYTES] "
                        "[--space PATH]... [--batch] STATUS_FD PROGRAM [ARGUMENT ...]\n");
        return 125;
    }
    int status_fd = atoi(argv[first]);
    if (status_fd < 3 || fcntl(status_fd, F_SETFD, FD_CLOEXEC) != 0) return 125;
    int is_init = getpid() == 1;
    // No process can open this one's descriptors (the status pipe) or memory through /proc,
    // not even one of the same user: the program's processes are of the same user in the sandbox.
    prctl(PR_SET_DUMPABLE, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (!is_init) prctl(PR_SET_CHILD_SUBREAPER, 1);

    // SIGCHLD arrives on a descriptor, so that the namespace can be looked at meanwhile.
    sigset_t children, previous;
    sigemptyset(&children);
    sigaddset(&children, SIGCHLD);
    sigprocmask(SIG_BLOCK, &children, &previous);
    int events = signalfd(-1, &children, SFD_CLOEXEC | SFD_NONBLOCK);
    int watching = is_init && events >= 0 &&
        (limits.memory || limits.processes || limits.files || limits.space_count);
    int ask[2] = { -1, -1 }, answer[2] = { -1, -1 };
    if (batch && watching && (pipe2(ask, O_CLOEXEC) != 0 || pipe2(answer, O_CLOEXEC) != 0)) return 125;
    pid_t child = fork();
    if (child < 0) return 125;
    if (child == 0) start_program(&limits, &previous, ask, answer, argv + first + 1);
    if (ask[1] >= 0) { close(ask[1]); close(answer[0]); }

    char buffer[128];
    int status = 0;
    const char *limit;
    if (events >= 0) {
        limit = watch(child, &limits, watching, events, ask[0], answer[1], &status, buffer, sizeof buffer);
    } else {
        limit = NULL;
        sigprocmask(SIG_SETMASK, &previous, NULL);
        while (waitpid(child, &status, 0) < 0) {
            if (errno != EINTR) return 125;
        }
    }
    if (is_init) {
        kill(-1, SIGKILL);
        while (wait(NULL) > 0 || errno == EINTR) {}
    } else {
        kill(-child, SIGKILL);
        end_children();
    }
    if (limit != NULL) {
        dprintf(status_fd, "l%s", limit);
    } else if (WIFSIGNALED(status)) {
        dprintf(status_fd, "s%d", WTERMSIG(status));
    } else {
        dprintf(status_fd, "e%d", WEXITSTATUS(status));
    }
    return 0;
}
