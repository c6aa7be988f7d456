using System.Runtime.CompilerServices;

// Locals are not zeroed on entry: every local and stackalloc buffer is written before it is read (the compiler checks
// locals; each stackalloc in the library is filled by the call it is made for). Zeroing the out-parameter structs of
// the record parsers took a measurable share of each Read and Write call.
[module: SkipLocalsInit]
