// Values given to `const thread T&` parameters (front/reference_arguments.h):
// finding an argument in the text, which arguments are values, the wrap.
#include "front/reference_arguments.h"

#include <gtest/gtest.h>

using namespace mslport::front;

namespace {
std::string argument(const std::string& text, const std::string& callee, int n) {
  unsigned b = 0, e = 0;
  if (!call_argument_range(text, (unsigned)text.find(callee), n, &b, &e)) return "<none>";
  return text.substr(b, e - b);
}
}  // namespace

TEST(ReferenceArguments, ArgumentsAreFoundByPosition) {
  const std::string t = "y = f(a + 1, g(b, c), \"x,y\", s[i, j]) + h<T, 2>( v ) ;";
  EXPECT_EQ(argument(t, "f(", 0), "a + 1");
  EXPECT_EQ(argument(t, "f(", 1), "g(b, c)");
  EXPECT_EQ(argument(t, "f(", 2), "\"x,y\"");
  EXPECT_EQ(argument(t, "f(", 3), "s[i, j]");
  EXPECT_EQ(argument(t, "f(", 4), "<none>");
  EXPECT_EQ(argument(t, "h<", 0), "v");  // after template arguments, spaces trimmed
  EXPECT_EQ(argument(t, "y =", 0), "<none>");  // no call there
}

TEST(ReferenceArguments, ValuesAreToldFromObjects) {
  for (const char* value : {"v - half4(1.0h)", "abs(v)", "-v", "a * 0.5f", "1.0f", "float(i)", "c ? a : b"})
    EXPECT_TRUE(is_value_text(value)) << value;
  for (const char* object : {"v", "a[i + 1]", "s.f", "p->f", "(v)", "m[i][j].x"})
    EXPECT_FALSE(is_value_text(object)) << object;
}

TEST(ReferenceArguments, TheArgumentIsBoxedOnce) {
  std::string text = "o = twice(x + 1.0f) + both(a, b * 2);\n";
  const unsigned twice = (unsigned)text.find("twice"), both = (unsigned)text.find("both");
  // A template's instances report an argument once each; -1: every value.
  EXPECT_EQ(box_reference_arguments(&text, {{nullptr, twice, 0}, {nullptr, twice, 0}, {nullptr, both, -1}}), 2u);
  EXPECT_EQ(text,
            "o = twice(::metal::__mslport_box<decltype(x + 1.0f)>{x + 1.0f}.v) + "
            "both(a, ::metal::__mslport_box<decltype(b * 2)>{b * 2}.v);\n");
  // Wrapped already: nothing to do.
  EXPECT_EQ(box_reference_arguments(&text, {{nullptr, (unsigned)text.find("twice"), 0}}), 0u);
}
