/* A library whose descriptor section holds garbage: the host refuses it from the file. */
__attribute__((section(".modhost_descriptor"), used)) static const char garbage[] = "MHDS\x01\x00\x00\x00\xff\xff\x00\x00not a descriptor";

void *modhost_module_entry(unsigned request) {
    (void)request;
    return 0;
}
