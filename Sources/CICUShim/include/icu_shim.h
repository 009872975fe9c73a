#ifndef BELAY_ICU_SHIM_H
#define BELAY_ICU_SHIM_H

#include <stdint.h>

/// ICU's spoof checker, behind plain C: Swift's Foundation carries its own ICU headers, which
/// clash with Debian's in one module, so no ICU type crosses this header. The checker is an
/// opaque pointer; text is UTF-16.

/// A new spoof checker with ICU's default checks, or NULL with `*status` set (an ICU UErrorCode).
void *belay_spoof_open(int32_t *status);

/// Closes a checker from `belay_spoof_open`.
void belay_spoof_close(void *checker);

/// The confusable skeleton (UTS #39) of `text` into `destination`; returns its length in UTF-16
/// units. When that exceeds `capacity`, `*overflow` is 1 and the call is to be made again with
/// a buffer that large; `*failed` is 1 for any other failure.
int32_t belay_spoof_skeleton(const void *checker, const uint16_t *text, int32_t length,
                             uint16_t *destination, int32_t capacity, int32_t *overflow, int32_t *failed);

#endif
