#include "looplab/exceptions.hpp"

#include <cxxabi.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <typeinfo>
#include <utility>

namespace looplab {
namespace {

// The readable name of a type: "looplab::ValueError" rather than "N7looplab10ValueErrorE".
std::string type_name(const std::type_info& type) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(type.name(), nullptr, nullptr, &status), std::free);
  std::string result = status == 0 ? name.get() : type.name();
  constexpr std::string_view kOurs = "looplab::";
  if (result.starts_with(kOurs)) result.erase(0, kOurs.size());
  return result;
}

// What Python shows of an exception's message: nothing for one made without
// a message, whose what() is empty or only its type's name ("TimeoutError").
// (So ValueError("") shows none either, where Python's repr has ValueError('').)
std::string_view message_of(const std::exception& error, std::string_view type) {
  std::string_view what = error.what();
  return what == type ? std::string_view{} : what;
}

// The last line of a Python traceback names an exception by its module,
// unless it is a builtin: "asyncio.exceptions.CancelledError: why", but
// "ValueError: bad". asyncio's own types are the ones looplab has.
std::string traceback_name(const std::string& type) {
  static const std::map<std::string_view, std::string_view> kModules = {
      {"CancelledError", "asyncio.exceptions"},
      {"InvalidStateError", "asyncio.exceptions"},
  };
  auto found = kModules.find(type);
  return found == kModules.end() ? type : std::string(found->second) + "." + type;
}

}  // namespace

std::exception_ptr make_os_error(int error_number, std::string strerror) {
  OSError::AsPython python{std::move(strerror)};
  switch (error_number) {
    case EPIPE:
    case ESHUTDOWN:
      return std::make_exception_ptr(BrokenPipeError(error_number, std::move(python)));
    case ECONNABORTED:
      return std::make_exception_ptr(ConnectionAbortedError(error_number, std::move(python)));
    case ECONNREFUSED:
      return std::make_exception_ptr(ConnectionRefusedError(error_number, std::move(python)));
    case ECONNRESET:
      return std::make_exception_ptr(ConnectionResetError(error_number, std::move(python)));
    case ENOENT:
      return std::make_exception_ptr(FileNotFoundError(error_number, std::move(python)));
    case EACCES:
    case EPERM:
      return std::make_exception_ptr(PermissionError(error_number, std::move(python)));
    case EEXIST:
      return std::make_exception_ptr(FileExistsError(error_number, std::move(python)));
    case ENOTDIR:
      return std::make_exception_ptr(NotADirectoryError(error_number, std::move(python)));
    case EISDIR:
      return std::make_exception_ptr(IsADirectoryError(error_number, std::move(python)));
    case EAGAIN:  // EWOULDBLOCK, the same number here
    case EALREADY:
    case EINPROGRESS:
      return std::make_exception_ptr(BlockingIOError(error_number, std::move(python)));
    case EINTR:
      return std::make_exception_ptr(InterruptedError(error_number, std::move(python)));
    case ESRCH:
      return std::make_exception_ptr(ProcessLookupError(error_number, std::move(python)));
    case ECHILD:
      return std::make_exception_ptr(ChildProcessError(error_number, std::move(python)));
    default:
      return std::make_exception_ptr(OSError(error_number, std::move(python)));
  }
}

std::string describe_exception(const std::exception_ptr& error) {
  if (!error) return "no exception";
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    std::string type = type_name(typeid(e));
    std::string_view message = message_of(e, type);
    return message.empty() ? type : type + ": " + std::string(message);
  } catch (...) {
    const std::type_info* type = abi::__cxa_current_exception_type();
    return type != nullptr ? type_name(*type) + " (not a std::exception)" : "unknown exception";
  }
}

std::string traceback_last_line(const std::exception_ptr& error) {
  std::string line = describe_exception(error);
  std::string type = line.substr(0, line.find(':'));
  return traceback_name(type) + line.substr(type.size());
}

std::string exception_repr(const std::exception_ptr& error) {
  if (!error) return "None";
  try {
    std::rethrow_exception(error);
  } catch (const OSError& e) {
    return type_name(typeid(e)) + "(" + std::to_string(e.code().value()) + ", " +
           python_repr(e.strerror()) + ")";
  } catch (const std::system_error& e) {
    return type_name(typeid(e)) + "(" + std::to_string(e.code().value()) + ", " +
           python_repr(e.code().message()) + ")";
  } catch (const std::exception& e) {
    std::string type = type_name(typeid(e));
    std::string_view message = message_of(e, type);
    return message.empty() ? type + "()" : type + "(" + python_repr(message) + ")";
  } catch (...) {
    return describe_exception(error);
  }
}

namespace {

// The characters above ASCII that Python's repr() escapes, those for which
// str.isprintable() is false: controls, format characters, the separators
// other than the space, private use. (Python also escapes code points that
// Unicode has not assigned yet; they pass through here.)
struct CodeRange {
  char32_t first;
  char32_t last;
};
constexpr std::array<CodeRange, 27> kUnprintable = {{
    {0x80, 0xa0},       {0xad, 0xad},       {0x600, 0x605},       {0x61c, 0x61c},
    {0x6dd, 0x6dd},     {0x70f, 0x70f},     {0x890, 0x891},       {0x8e2, 0x8e2},
    {0x1680, 0x1680},   {0x180e, 0x180e},   {0x2000, 0x200f},     {0x2028, 0x202f},
    {0x205f, 0x2064},   {0x2066, 0x206f},   {0x3000, 0x3000},     {0xe000, 0xf8ff},
    {0xfeff, 0xfeff},   {0xfff9, 0xfffb},   {0x110bd, 0x110bd},   {0x110cd, 0x110cd},
    {0x13430, 0x1343f}, {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a},   {0xe0001, 0xe0001},
    {0xe0020, 0xe007f}, {0xf0000, 0xffffd}, {0x100000, 0x10fffd},
}};

bool is_printable(char32_t code) {
  for (CodeRange range : kUnprintable) {
    if (code < range.first) return true;
    if (code <= range.last) return false;
  }
  return true;
}

// The code point that starts text[at] and how many bytes it takes, or
// {0, 0} if no valid UTF-8 sequence starts there (a stray byte, a cut or
// overlong sequence, a surrogate, a code point past U+10FFFF).
std::pair<char32_t, std::size_t> decode_utf8(std::string_view text, std::size_t at) {
  constexpr std::array<char32_t, 5> kSmallest = {0, 0, 0x80, 0x800, 0x10000};  // by length
  const auto lead = static_cast<unsigned char>(text[at]);
  std::size_t length = lead < 0xc0 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf8 ? 4 : 0;
  if (length == 0 || at + length > text.size()) return {0, 0};
  char32_t code = lead & (0x7f >> length);
  for (std::size_t i = 1; i < length; ++i) {
    const auto next = static_cast<unsigned char>(text[at + i]);
    if ((next & 0xc0) != 0x80) return {0, 0};
    code = (code << 6) | (next & 0x3f);
  }
  if (code < kSmallest[length] || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff)
    return {0, 0};
  return {code, length};
}

// \xhh, \uhhhh or \Uhhhhhhhh, as Python writes a character it does not show.
void append_escape(std::string& out, char32_t code) {
  constexpr std::string_view kHex = "0123456789abcdef";
  int digits = code <= 0xff ? 2 : code <= 0xffff ? 4 : 8;
  out += code <= 0xff ? "\\x" : code <= 0xffff ? "\\u" : "\\U";
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += kHex[(code >> shift) & 0xf];
}

}  // namespace

std::string python_repr(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string result(1, quote);
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    const auto byte = static_cast<unsigned char>(c);
    if (c == quote || c == '\\') {
      result += '\\';
      result += c;
    } else if (c == '\n') {
      result += "\\n";
    } else if (c == '\r') {
      result += "\\r";
    } else if (c == '\t') {
      result += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      append_escape(result, byte);
    } else if (auto [code, length] = decode_utf8(text, at); length != 0 && !is_printable(code)) {
      append_escape(result, code);
      at += length - 1;
    } else {
      result += c;  // ASCII, a byte of a printable character, or a byte that is not UTF-8
    }
  }
  result += quote;
  return result;
}

bool is_cancelled_error(const std::exception_ptr& error) noexcept {
  if (!error) return false;
  try {
    std::rethrow_exception(error);
  } catch (const CancelledError&) {
    return true;
  } catch (...) {
    return false;
  }
}

bool is_loop_exit(const std::exception_ptr& error) noexcept {
  if (!error) return false;
  try {
    std::rethrow_exception(error);
  } catch (const LoopExit&) {
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace looplab
