// http_parser.cpp: see http_parser.hpp.
#include "http_parser.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace looplab::http {
namespace {

// RFC 9110 5.6.2: the characters of a token (a method, a header name).
bool is_token_char(unsigned char c) {
  if (std::isalnum(c)) return true;
  std::string_view specials = "!#$%&'*+-.^_`|~";
  return specials.find(static_cast<char>(c)) != std::string_view::npos;
}

bool is_token(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return is_token_char(c); });
}

// A header value: visible characters, spaces and tabs (obs-text allowed); no
// control characters, which is where CR and LF smuggling starts.
bool is_field_value(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u == '\t' || u >= 0x20 ? u != 0x7f : false;
  });
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool contains_token(std::string_view list, std::string_view token) {
  // "Connection: keep-alive, Upgrade": a comma-separated list, any case.
  while (!list.empty()) {
    std::size_t comma = list.find(',');
    if (lower(trim(list.substr(0, comma))) == token) return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

// The next line of `head` (without its CRLF, or a bare LF as RFC 9112 2.2
// allows a recipient to accept), advancing `at` past it.
std::string_view next_line(std::string_view head, std::size_t& at) {
  std::size_t end = head.find('\n', at);
  std::string_view line = head.substr(at, end - at);
  at = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool parse_request_line(std::string_view line, Request& request) {
  std::size_t first = line.find(' ');
  std::size_t last = line.rfind(' ');
  if (first == std::string_view::npos || first == last) return false;
  std::string_view method = line.substr(0, first);
  std::string_view target = line.substr(first + 1, last - first - 1);
  std::string_view version = line.substr(last + 1);
  if (!is_token(method) || target.empty() || target.find(' ') != std::string_view::npos)
    return false;
  if (!std::all_of(target.begin(), target.end(),
                   [](char c) { return static_cast<unsigned char>(c) > 0x20 && c != 0x7f; })) {
    return false;
  }
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return false;
  request.method = std::string(method);
  request.target = std::string(target);
  request.minor_version = version.back() - '0';
  request.keep_alive = request.minor_version == 1;
  return true;
}

}  // namespace

const std::string* Request::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return &value;
  }
  return nullptr;
}

ParseResult parse_request_head(std::string_view input, Request& request, std::size_t max_head) {
  // RFC 9112 2.2: empty lines before the request line are ignored.
  std::size_t start = 0;
  while (start < input.size() && (input[start] == '\r' || input[start] == '\n')) ++start;
  // The head ends at the first empty line: "\r\n\r\n", or "\n\n" with bare LFs.
  std::size_t end = std::string_view::npos;
  std::size_t after = 0;
  for (std::size_t at = input.find('\n', start); at != std::string_view::npos;
       at = input.find('\n', at + 1)) {
    std::size_t next = at + 1;
    if (next < input.size() && input[next] == '\n') {
      end = at + 1;
      after = next + 1;
      break;
    }
    if (next + 1 < input.size() && input[next] == '\r' && input[next + 1] == '\n') {
      end = at + 1;
      after = next + 2;
      break;
    }
    if (next - start > max_head) break;
  }
  if (end == std::string_view::npos) {
    return {input.size() - start > max_head ? ParseStatus::kHeadTooLarge : ParseStatus::kIncomplete,
            0};
  }
  if (after - start > max_head) return {ParseStatus::kHeadTooLarge, 0};

  request = Request{};
  std::string_view head = input.substr(0, end);
  std::size_t at = start;
  if (!parse_request_line(next_line(head, at), request)) return {ParseStatus::kBadRequest, 0};
  bool has_length = false;
  while (at < head.size()) {
    std::string_view line = next_line(head, at);
    std::size_t colon = line.find(':');
    // No colon, whitespace before it (RFC 9112 5.1), or a folded line (obs-fold, 5.2): 400.
    if (colon == std::string_view::npos || !is_token(line.substr(0, colon)))
      return {ParseStatus::kBadRequest, 0};
    std::string_view value = trim(line.substr(colon + 1));
    if (!is_field_value(value)) return {ParseStatus::kBadRequest, 0};
    std::string name = lower(line.substr(0, colon));
    if (name == "content-length") {
      std::size_t length = 0;
      auto [ptr, error] = std::from_chars(value.data(), value.data() + value.size(), length);
      bool valid = !value.empty() && error == std::errc() && ptr == value.data() + value.size();
      // Two different lengths: which one a proxy believed is anyone's guess (RFC 9112 6.3).
      if (!valid || (has_length && length != request.content_length))
        return {ParseStatus::kBadRequest, 0};
      request.content_length = length;
      has_length = true;
    } else if (name == "transfer-encoding") {
      return {ParseStatus::kNotImplemented, 0};
    } else if (name == "connection") {
      if (contains_token(value, "close")) request.keep_alive = false;
      if (contains_token(value, "keep-alive") && request.minor_version == 0)
        request.keep_alive = true;
    }
    request.headers.emplace_back(std::move(name), std::string(value));
  }
  return {ParseStatus::kDone, after};
}

}  // namespace looplab::http
