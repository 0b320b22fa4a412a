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

// reprlib's cut of a repr that is too long: its first 13 and last 14
// characters around "..." (maxstring and maxother are both 30).
constexpr std::size_t kMaxShown = 30;
constexpr std::size_t kHead = (kMaxShown - 3) / 2;    // 13
constexpr std::size_t kTail = kMaxShown - 3 - kHead;  // 14
std::string cut(std::string_view shown) {
  return std::string(first_characters(shown, kHead)) + "..." +
         std::string(last_characters(shown, kTail));
}

}  // namespace

std::string reprlib_string_repr(std::string_view text) {
  std::string shown = python_repr(first_characters(text, kMaxShown));
  if (characters_in(shown) <= kMaxShown) return shown;
  // repr_str: the repr of the text's own head and tail, cut.
  return cut(python_repr(std::string(first_characters(text, kHead)) +
                         std::string(last_characters(text, kTail))));
}

std::string reprlib_other_repr(std::string repr) {
  if (characters_in(repr) <= kMaxShown) return repr;  // repr_instance
  return cut(repr);
}

}  // namespace looplab
