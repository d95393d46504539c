// modhost-floor [--from-descriptor] LIBRARY...: the floor for a start-up that loads these
// libraries. Opens each with dlopen (RTLD_NOW | RTLD_LOCAL, as the host does) and exits: the
// dynamic loader's cost and the libraries' own initializers, without anything of the host.
// With --from-descriptor, each file is opened first and loaded from its open descriptor
// (/proc/self/fd/N, kept open), as the host loads the file it checked: the floor of that way
// of loading. modhost-bench's `startup` group sets the host's times beside both. Exit status 1
// names a library that did not load, so a bad path never passes for a fast floor.
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int first = 1;
    int fromDescriptor = argc > 1 && strcmp(argv[1], "--from-descriptor") == 0;
    if (fromDescriptor) first = 2;
    for (int index = first; index < argc; index++) {
        char path[64];
        const char *name = argv[index];
        if (fromDescriptor) {
            int fd = open(argv[index], O_RDONLY | O_CLOEXEC);
            if (fd < 0) {
                fprintf(stderr, "modhost-floor: cannot open %s\n", argv[index]);
                return 1;
            }
            snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
            name = path;
        }
        if (dlopen(name, RTLD_NOW | RTLD_LOCAL) == NULL) {
            fprintf(stderr, "modhost-floor: %s\n", dlerror());
            return 1;
        }
    }
    return 0;
}
