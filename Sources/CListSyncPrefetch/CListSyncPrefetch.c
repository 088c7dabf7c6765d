// The module's one function is inline, in its header; this file makes the target a C target.
