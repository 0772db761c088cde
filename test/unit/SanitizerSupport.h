// QSPEC_ASAN is defined when the unit tests are built with AddressSanitizer (GCC's
// __SANITIZE_ADDRESS__, clang's __has_feature). Its allocator has no brk heap and no glibc
// arenas, and its shadow memory leaves no room for an address-space limit: the tests of those
// skip under it.
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define QSPEC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define QSPEC_ASAN 1
#endif
#endif
