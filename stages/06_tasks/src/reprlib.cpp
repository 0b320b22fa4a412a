#include "looplab/reprlib.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>

#include "looplab/exceptions.hpp"

namespace looplab {

std::string python_float_repr(double value) {
  if (std::isnan(value)) return "nan";  // never "-nan"
  // The shortest text that reads back the same (to_chars without a
  // precision), fixed from 1e-4 up to 1e16 and always with a point there.
  std::array<char, 40> text{};
  double size = std::fabs(value);
  bool fixed = size == 0.0 || (size >= 1e-4 && size < 1e16);
  auto [end, error] =
      std::to_chars(text.data(), text.data() + text.size(), value,
                    fixed ? std::chars_format::fixed : std::chars_format::scientific);
  std::string repr(text.data(), end);
  if (fixed && repr.find('.') == std::string::npos) repr += ".0";
  return repr;
}

namespace {

// Python counts characters, UTF-8 spends 1 to 4 bytes on one: these count
// and cut at the bytes that begin one (any but 10xxxxxx).
bool begins_a_character(char byte) { return (static_cast<unsigned char>(byte) & 0xC0U) != 0x80U; }

std::size_t characters_in(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), begins_a_character));
}

// text[:count] (Python's slice, in characters).
std::string_view first_characters(std::string_view text, std::size_t count) {
  std::size_t end = 0;
  for (std::size_t seen = 0; end < text.size(); ++end) {
    if (begins_a_character(text[end]) && seen++ == count) break;
  }
  return text.substr(0, end);
}

// text[len(text) - count:] (Python's slice, in characters; a start below 0
// counts from the end, as in Python).
std::string_view last_characters(std::string_view text, std::size_t count) {
  auto total = static_cast<std::ptrdiff_t>(characters_in(text));
  std::ptrdiff_t start = total - static_cast<std::ptrdiff_t>(count);
  if (start < 0) start = std::max<std::ptrdiff_t>(0, total + start);
  return text.substr(first_characters(text, static_cast<std::size_t>(start)).size());
}

}  // namespace

std::string reprlib_string_repr(std::string_view text) {
  constexpr std::size_t kMaxString = 30;  // reprlib.Repr().maxstring
  std::string shown = python_repr(first_characters(text, kMaxString));
  if (characters_in(shown) <= kMaxString) return shown;
  constexpr std::size_t kHead = (kMaxString - 3) / 2;    // 13
  constexpr std::size_t kTail = kMaxString - 3 - kHead;  // 14
  shown = python_repr(std::string(first_characters(text, kHead)) +
                      std::string(last_characters(text, kTail)));
  return std::string(first_characters(shown, kHead)) + "..." +
         std::string(last_characters(shown, kTail));
}

std::string reprlib_other_repr(std::string repr) {
  constexpr std::size_t kMaxOther = 30;  // reprlib.Repr().maxother
  if (characters_in(repr) <= kMaxOther) return repr;
  constexpr std::size_t kHead = (kMaxOther - 3) / 2;    // 13
  constexpr std::size_t kTail = kMaxOther - 3 - kHead;  // 14
  return std::string(first_characters(repr, kHead)) + "..." +
         std::string(last_characters(repr, kTail));
}

}  // namespace looplab
