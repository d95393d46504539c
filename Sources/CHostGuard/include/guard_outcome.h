/* How a guarded module call ended: the words the guard writes into the crash marker and a
 * probe's report, and the host reads back (HostLoading's GuardOutcome). Defined here once, for
 * both sides. */
#ifndef MODHOST_GUARD_OUTCOME_H
#define MODHOST_GUARD_OUTCOME_H

/* A fatal signal: this word, then the signal's name ("signal SIGSEGV"). */
#define MODHOST_OUTCOME_SIGNAL "signal "
/* The module called exit: this word, then the status ("exit 3"). */
#define MODHOST_OUTCOME_EXIT "exit "
/* The call overran its time limit. */
#define MODHOST_OUTCOME_HANG "hang"
/* The call is running: what the marker says until the call returns. Found by a later start,
 * the process vanished in the call. Never reported as an end. */
#define MODHOST_OUTCOME_RUNNING "running"
/* No module call is running: the whole marker between calls. A process that ended while it
 * said so ended in nobody's code, and leaves no record. */
#define MODHOST_MARKER_IDLE "idle"
/* The same module and phase vanished twice in a row: written by the host, not the guard. */
#define MODHOST_OUTCOME_VANISHED_TWICE "vanished twice"

#endif
