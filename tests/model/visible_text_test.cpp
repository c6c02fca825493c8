#include "model/visible_text.hpp"

#include <gtest/gtest.h>

namespace perfgate {
namespace PERFGATE_TEST_FILE {

TEST(VisibleText, ShowsEveryControlCharacterAsAHexEscape) {
  EXPECT_EQ(visible_text(std::string("a\x1b[31mb\x07\0c\x7f", 11)), "a\\x1b[31mb\\x07\\x00c\\x7f");
  EXPECT_EQ(visible_text("line\nnext\ttab"), "line\\x0anext\\x09tab");
  EXPECT_EQ(visible_text("line\nnext\ttab", true), "line\nnext\ttab");
  EXPECT_EQ(visible_text("caf\xc3\xa9 \xe2\x9c\x93"), "caf\xc3\xa9 \xe2\x9c\x93");  // UTF-8 stays
}

}  // namespace PERFGATE_TEST_FILE
}  // namespace perfgate
