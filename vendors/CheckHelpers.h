// Small helpers the vendors' code shares (vendors/<vendor>/*Rules.cpp, *Patterns.cpp).
#pragma once

#include "ir/Prefix.h"

#include <initializer_list>
#include <string_view>

namespace qspec::vendors {

// True when `v` is one of the listed words (a vendor's enum or type list).
inline bool isOneOf(std::string_view v, std::initializer_list<const char *> list) {
  for (const char *s : list)
    if (v == s)
      return true;
  return false;
}

// How many leading bytes two strings share (ir/Prefix.h).
using ir::commonPrefixLength;

} // namespace qspec::vendors
