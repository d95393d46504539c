/* CHostGuard: the async-signal-safe crash guard around module code (fatal signals, exit,
 * hangs, the terminal), crash sites found by address, and the outcome words it shares with
 * the host. */
#include "guard_outcome.h"
#include "host_guard.h"
