// fuzz_http_parser.cpp: libFuzzer on parse_request_head() (clang only).
// Beyond "no crash, no sanitizer report", it checks what the server relies
// on: a head that parses is parsed the same from its own bytes alone, a
// prefix never finishes a different head, and no parsed field holds a
// control character (CR, LF, NUL: the start of request smuggling).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "http_parser.hpp"

using looplab::http::parse_request_head;
using looplab::http::ParseStatus;
using looplab::http::Request;

namespace {

bool clean(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t') return false;
  }
  return true;
}

void check(bool condition) {
  if (!condition) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr std::size_t kMaxHead = 1024;
  Request whole;
  auto parsed = parse_request_head(input, whole, kMaxHead);
  if (parsed.status == ParseStatus::kDone) {
    check(parsed.consumed > 0 && parsed.consumed <= size);
    check(clean(whole.method) && clean(whole.target) && !whole.method.empty() &&
          !whole.target.empty());
    for (const auto& [name, value] : whole.headers)
      check(clean(name) && clean(value) && !name.empty());
    Request head_only;
    auto again = parse_request_head(input.substr(0, parsed.consumed), head_only, kMaxHead);
    check(again.status == ParseStatus::kDone && again.consumed == parsed.consumed);
    check(head_only.method == whole.method && head_only.target == whole.target &&
          head_only.headers == whole.headers && head_only.content_length == whole.content_length &&
          head_only.keep_alive == whole.keep_alive);
  }
  Request part;
  auto half = parse_request_head(input.substr(0, size / 2), part, kMaxHead);
  if (half.status == ParseStatus::kDone)
    check(parsed.status == ParseStatus::kDone && half.consumed == parsed.consumed);
  return 0;
}
