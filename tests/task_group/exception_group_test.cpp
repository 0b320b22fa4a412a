// ExceptionGroup (PEP 654) and split(), the C++ spelling of except*.
#include <gtest/gtest.h>

#include "task_group/support.hpp"

namespace looplab {
namespace {

using testing::described;
using testing::thrown_by;

std::exception_ptr value_error(const char* what) {
  return std::make_exception_ptr(ValueError(what));
}
std::exception_ptr type_error(const char* what) { return std::make_exception_ptr(TypeError(what)); }

TEST(ExceptionGroup, SaysHowManyExceptionsItHolds) {
  EXPECT_STREQ(ExceptionGroup("eg", {value_error("a")}).what(), "eg (1 sub-exception)");
  EXPECT_STREQ(ExceptionGroup("eg", {value_error("a"), type_error("b")}).what(),
               "eg (2 sub-exceptions)");
}

TEST(ExceptionGroup, ReprListsItsExceptionsAsPythonDoes) {
  ExceptionGroup inner("inner", {type_error("b")});
  ExceptionGroup outer("it's", {value_error("a"), std::make_exception_ptr(inner)});
  EXPECT_EQ(exception_repr(std::make_exception_ptr(outer)),
            "ExceptionGroup(\"it's\", [ValueError('a'), "
            "ExceptionGroup('inner', [TypeError('b')])])");
}

TEST(ExceptionGroup, AnEmptyListOrANullExceptionIsValueError) {
  EXPECT_THROW(ExceptionGroup("eg", {}), ValueError);
  EXPECT_EQ(thrown_by([] {
              ExceptionGroup group("eg", {value_error("a"), nullptr});
            }),
            "ValueError: Item 1 of second argument (exceptions) is not an exception");
}

TEST(ExceptionGroup, ABaseExceptionCannotBeNestedInIt) {
  for (std::exception_ptr base :
       {std::make_exception_ptr(SystemExit(2)), std::make_exception_ptr(KeyboardInterrupt()),
        std::make_exception_ptr(CancelledError())}) {
    EXPECT_EQ(thrown_by([&base] {
                ExceptionGroup group("eg", {value_error("a"), base});
              }),
              "TypeError: Cannot nest BaseExceptions in an ExceptionGroup");
  }
}

TEST(ExceptionGroup, SplitSeparatesByTypeAndKeepsTheMessage) {
  ExceptionGroup group("eg", {value_error("a"), type_error("b"), value_error("c")});
  auto [values, rest] = group.split<ValueError>();
  ASSERT_TRUE(values && rest);
  EXPECT_EQ(values->message(), "eg");
  EXPECT_EQ(described(*values), (std::vector<std::string>{"ValueError: a", "ValueError: c"}));
  EXPECT_EQ(described(*rest), (std::vector<std::string>{"TypeError: b"}));
}

TEST(ExceptionGroup, AnEmptyHalfIsNullopt) {
  ExceptionGroup group("eg", {value_error("a")});
  auto [values, rest] = group.split<ValueError>();
  EXPECT_TRUE(values);
  EXPECT_FALSE(rest);
  EXPECT_FALSE(group.subgroup<TypeError>());
}

TEST(ExceptionGroup, SplitGoesIntoNestedGroupsAndKeepsTheirShape) {
  ExceptionGroup inner("inner", {value_error("a"), type_error("b")});
  ExceptionGroup outer("outer", {std::make_exception_ptr(inner), value_error("c")});
  auto [values, rest] = outer.split<ValueError>();
  ASSERT_TRUE(values && rest);
  ASSERT_EQ(values->exceptions().size(), 2U);
  EXPECT_EQ(described(*values)[0], "ExceptionGroup: inner (1 sub-exception)");
  EXPECT_EQ(described(*values)[1], "ValueError: c");
  EXPECT_EQ(described(*rest),
            (std::vector<std::string>{"ExceptionGroup: inner (1 sub-exception)"}));
}

TEST(ExceptionGroup, AGroupThatMatchesGoesWhole) {
  ExceptionGroup group("eg", {value_error("a"), type_error("b")});
  auto [all, rest] = group.split<ExceptionGroup>();
  ASSERT_TRUE(all);
  EXPECT_EQ(all->exceptions().size(), 2U);
  EXPECT_FALSE(rest);
}

TEST(ExceptionGroup, ExceptStarHandlesSomeAndRethrowsTheRest) {
  auto handle_value_errors = [] {
    try {
      throw ExceptionGroup("eg", {value_error("a"), type_error("b")});
    } catch (const ExceptionGroup& group) {
      auto [values, rest] = group.split<ValueError>();
      if (rest) throw *rest;
    }
  };
  try {
    handle_value_errors();
    FAIL() << "the TypeError was swallowed";
  } catch (const ExceptionGroup& rest) {
    EXPECT_EQ(described(rest), (std::vector<std::string>{"TypeError: b"}));
  }
}

}  // namespace
}  // namespace looplab
