/* A library that breaks the modhost handshake on purpose: it exports no entry symbol. */
int not_the_entry_point(void) { return 42; }
