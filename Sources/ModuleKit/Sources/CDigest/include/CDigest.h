/* CDigest: SHA-256 through the system's libcrypto, opened on first use. */
#include "modhost_sha256.h"
