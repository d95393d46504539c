/* CModuleABI: the C layout of the entry point a module library answers and of its descriptor
 * section; nothing else. An umbrella header, not an umbrella folder: a header added here
 * changes this file, so every build's module cache sees it. */
#include "modhost_abi.h"
