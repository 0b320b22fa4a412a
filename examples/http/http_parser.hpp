// http_parser.hpp: the head of an HTTP/1.1 request (RFC 9112), parsed from
// what has arrived so far. Small on purpose: what the example server needs,
// strict where a lenient parser would let two readers of one request
// disagree (request smuggling), and fuzzed (fuzz_http_parser).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace looplab::http {

struct Request {
  std::string method;
  std::string target;
  int minor_version = 1;                                     // HTTP/1.<minor_version>
  std::vector<std::pair<std::string, std::string>> headers;  // names in lower case
  std::size_t content_length = 0;
  bool keep_alive = true;  // HTTP/1.1 unless "Connection: close"; HTTP/1.0 only with "keep-alive"

  /// The value of the first header named `name` (lower case), or nullptr.
  const std::string* header(std::string_view name) const;
};

enum class ParseStatus {
  kIncomplete,      // the head has not fully arrived: read more
  kDone,            // a whole head: `consumed` bytes, the body follows
  kBadRequest,      // 400: a malformed request line or header
  kHeadTooLarge,    // 431: the head is over the limit
  kNotImplemented,  // 501: a Transfer-Encoding (chunked bodies are not supported)
};

struct ParseResult {
  ParseStatus status = ParseStatus::kIncomplete;
  std::size_t consumed = 0;  // with kDone: the length of the head, its blank line included
};

/// Parses the request head at the start of `input` into `request`. A head
/// longer than `max_head` bytes (or an incomplete one already that long)
/// is kHeadTooLarge.
ParseResult parse_request_head(std::string_view input, Request& request,
                               std::size_t max_head = 8192);

}  // namespace looplab::http
