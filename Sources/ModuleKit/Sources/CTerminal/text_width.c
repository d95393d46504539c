#define _XOPEN_SOURCE 700
#include <wchar.h>

#include "modhost_text_width.h"

int modhost_text_width(unsigned int scalar) { return wcwidth((wchar_t)scalar); }
