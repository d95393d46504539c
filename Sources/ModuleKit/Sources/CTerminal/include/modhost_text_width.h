#ifndef MODHOST_TEXT_WIDTH_H
#define MODHOST_TEXT_WIDTH_H

/* The columns a terminal gives one Unicode scalar: the C library's wcwidth (-1 for a control
   character), for the kit's full-screen mode. Needs a UTF-8 LC_CTYPE. */
int modhost_text_width(unsigned int scalar);

#endif
