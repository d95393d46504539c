// Intentionally empty: this target carries modhost_abi.h (and text_width.c its one helper).
