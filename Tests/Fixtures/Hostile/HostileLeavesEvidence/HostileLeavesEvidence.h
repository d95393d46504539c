/* No API: the library only leaves evidence when it is loaded. */
