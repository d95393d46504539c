// Nothing here: the target depends on every feature module's library product, so that
// 'swift build' builds lib<Name>.so for each; nothing links it.
