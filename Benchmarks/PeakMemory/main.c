// modhost-peak PROGRAM [ARGUMENT...]: runs PROGRAM with standard input, output and error on
// /dev/null and prints its peak resident memory in KiB (wait4's ru_maxrss). A plain fork, not
// posix_spawn: with vfork the child's peak would include the spawning process's memory, and
// sampling /proc while it runs misses the end of a short process. Exit status 1 when it could
// not be run or did not exit normally, so a failure never passes for a small figure.
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: modhost-peak PROGRAM [ARGUMENT...]\n");
        return 2;
    }
    pid_t child = fork();
    if (child < 0) return 1;
    if (child == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        execv(argv[1], argv + 1);
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    if (wait4(child, &status, 0, &usage) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) == 127) return 1;
    printf("%ld\n", usage.ru_maxrss);
    return 0;
}
