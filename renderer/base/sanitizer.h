/* renderer/base/sanitizer.h - MMD_ASAN: defined (1) in a build under
 * AddressSanitizer (`make SAN=1`), by GCC's or clang's own test, so the few
 * places that must act otherwise under it test one name. */
#ifndef MMD_RENDERER_BASE_SANITIZER_H
#define MMD_RENDERER_BASE_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define MMD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MMD_ASAN 1
#endif
#endif

#endif
