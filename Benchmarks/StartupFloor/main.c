// modhost-floor LIBRARY...: the floor for a start-up that loads these libraries. Opens each
// with dlopen (RTLD_NOW | RTLD_LOCAL, as the host does) and exits: the dynamic loader's cost
// and the libraries' own initializers, without anything of the host. modhost-bench's
// `startup` group sets the host's times beside it. Exit status 1 names a library that did not
// load, so a bad path never passes for a fast floor.
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
    for (int index = 1; index < argc; index++) {
        if (dlopen(argv[index], RTLD_NOW | RTLD_LOCAL) == NULL) {
            fprintf(stderr, "modhost-floor: %s\n", dlerror());
            return 1;
        }
    }
    return 0;
}
