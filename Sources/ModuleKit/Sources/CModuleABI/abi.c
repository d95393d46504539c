// Intentionally empty: this target carries modhost_abi.h, the C layout of the entry point.
