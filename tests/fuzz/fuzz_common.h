// libFuzzer targets for the readers of the user's files (issue 13): each reader must either
// return or throw std::runtime_error with its one-line message. Anything else — a crash, a
// sanitizer report, another exception, an allocation past -malloc_limit_mb — is a finding.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

template <class F>
int refuse_or_read(const uint8_t* data, size_t size, F read) {
  std::string bytes(reinterpret_cast<const char*>(data), size);
  try {
    read(bytes);
  } catch (const std::runtime_error&) {}
  return 0;
}
