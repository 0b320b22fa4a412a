// The request head parser of the example HTTP server (examples/http/).
#include "http_parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace looplab::http {
namespace {

ParseResult parse(const std::string& text, Request& request, std::size_t max_head = 8192) {
  return parse_request_head(text, request, max_head);
}

TEST(HttpParser, ASimpleGet) {
  Request r;
  std::string text = "GET /index.html HTTP/1.1\r\nHost: example\r\nUser-Agent: t\r\n\r\n";
  ParseResult p = parse(text, r);
  ASSERT_EQ(p.status, ParseStatus::kDone);
  EXPECT_EQ(p.consumed, text.size());
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.target, "/index.html");
  EXPECT_EQ(r.minor_version, 1);
  EXPECT_TRUE(r.keep_alive);
  ASSERT_NE(r.header("host"), nullptr);
  EXPECT_EQ(*r.header("host"), "example");
  EXPECT_EQ(r.header("accept"), nullptr);
}

TEST(HttpParser, EveryPrefixIsIncomplete) {
  std::string text = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  for (std::size_t n = 0; n < text.size(); ++n) {
    Request r;
    EXPECT_EQ(parse(text.substr(0, n), r).status, ParseStatus::kIncomplete) << n;
  }
}

TEST(HttpParser, PipelinedRequestsAreParsedOneHeadAtATime) {
  std::string text = "GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n";
  Request r;
  ParseResult first = parse(text, r);
  ASSERT_EQ(first.status, ParseStatus::kDone);
  EXPECT_EQ(r.target, "/a");
  ParseResult second = parse(text.substr(first.consumed), r);
  ASSERT_EQ(second.status, ParseStatus::kDone);
  EXPECT_EQ(r.target, "/b");
  EXPECT_EQ(first.consumed + second.consumed, text.size());
}

TEST(HttpParser, ContentLengthIsReadAndTheBodyIsNotConsumed) {
  Request r;
  std::string head = "POST /e HTTP/1.1\r\nContent-Length: 5\r\n\r\n";
  ParseResult p = parse(head + "hello", r);
  ASSERT_EQ(p.status, ParseStatus::kDone);
  EXPECT_EQ(p.consumed, head.size());
  EXPECT_EQ(r.content_length, 5u);
}

TEST(HttpParser, ConnectionHeadersDecideKeepAlive) {
  Request r;
  ASSERT_EQ(parse("GET / HTTP/1.1\r\nConnection: Close\r\n\r\n", r).status, ParseStatus::kDone);
  EXPECT_FALSE(r.keep_alive);
  ASSERT_EQ(parse("GET / HTTP/1.0\r\n\r\n", r).status, ParseStatus::kDone);
  EXPECT_FALSE(r.keep_alive);
  ASSERT_EQ(parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", r).status,
            ParseStatus::kDone);
  EXPECT_TRUE(r.keep_alive);
}

TEST(HttpParser, BareLineFeedsAndLeadingEmptyLinesAreAccepted) {
  Request r;
  std::string text = "\r\n\nGET / HTTP/1.1\nHost: x\n\n";
  ParseResult p = parse(text, r);
  ASSERT_EQ(p.status, ParseStatus::kDone);
  EXPECT_EQ(p.consumed, text.size());
}

TEST(HttpParser, MalformedRequestLinesAreBadRequests) {
  for (std::string line : std::vector<std::string>{
           "GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/2.0\r\n\r\n",
           "G(T / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 extra\r\n\r\n", " GET / HTTP/1.1\r\n\r\n",
           std::string("GET /\x01 HTTP/1.1\r\n\r\n")}) {
    Request r;
    EXPECT_EQ(parse(line, r).status, ParseStatus::kBadRequest) << line;
  }
}

TEST(HttpParser, MalformedHeadersAreBadRequests) {
  for (std::string header : std::vector<std::string>{
           "NoColon\r\n", "Space : x\r\n", " folded: x\r\n", "X: a\rb\r\n",
           "Content-Length: 12a\r\n", "Content-Length: -1\r\n", "Content-Length:\r\n",
           "Content-Length: 1\r\nContent-Length: 2\r\n"}) {
    Request r;
    EXPECT_EQ(parse("GET / HTTP/1.1\r\n" + header + "\r\n", r).status, ParseStatus::kBadRequest)
        << header;
  }
}

TEST(HttpParser, RepeatedEqualContentLengthsAreOne) {
  Request r;
  ASSERT_EQ(parse("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n", r).status,
            ParseStatus::kDone);
  EXPECT_EQ(r.content_length, 3u);
}

TEST(HttpParser, TransferEncodingIsNotImplemented) {
  Request r;
  EXPECT_EQ(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", r).status,
            ParseStatus::kNotImplemented);
}

TEST(HttpParser, AHeadOverTheLimitIsTooLargeEvenBeforeItEnds) {
  Request r;
  std::string big = "GET / HTTP/1.1\r\nX: " + std::string(200, 'a') + "\r\n";
  EXPECT_EQ(parse(big, r, 100).status, ParseStatus::kHeadTooLarge);
  EXPECT_EQ(parse(big + "\r\n", r, 100).status, ParseStatus::kHeadTooLarge);
  EXPECT_EQ(parse(big + "\r\n", r, 1000).status, ParseStatus::kDone);
}

}  // namespace
}  // namespace looplab::http
