// Intentionally empty: this target only carries modhost_abi.h.
