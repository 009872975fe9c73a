#ifndef BELAY_IMAGE_SHIM_H
#define BELAY_IMAGE_SHIM_H
/* PNG and JPEG calls whose libraries report errors with longjmp; setjmp stays in this C code. */
#endif
