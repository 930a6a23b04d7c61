#include "layout/query.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "layout/rng.hpp"

namespace lodex {
namespace {

std::string error_of(const std::string& text, const Schema* schema = nullptr) {
  try {
    QueryNode q = parse_query(text);
    if (schema) bind_query(q, *schema);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument) << text;
    return e.what();
  }
  return "no error";
}

Schema vpic_schema() {
  return Schema({{"position", DType::kF4, 3},
                 {"ux", DType::kF4, 1},
                 {"energy", DType::kF8, 1},
                 {"id", DType::kU8, 1},
                 {"q", DType::kI2, 1}});
}

TEST(Query, ParsesPrecedenceChainsAndFlips) {
  EXPECT_EQ(query_text(parse_query("energy > 1.3")), "energy > 1.3");
  EXPECT_EQ(query_text(parse_query("1.3 < energy")), "energy > 1.3");
  EXPECT_EQ(query_text(parse_query("157.654 < x < 162.441")), "(x > 157.654 && x < 162.441)");
  EXPECT_EQ(query_text(parse_query("3 >= position[1] > -2e-5")), "(position[1] <= 3 && position[1] > -2e-05)");
  EXPECT_EQ(query_text(parse_query("a < 1 || b < 2 && c < 3")), "(a < 1 || (b < 2 && c < 3))");
  EXPECT_EQ(query_text(parse_query("(a < 1 || b < 2) && !c == 3")), "((a < 1 || b < 2) && !(c == 3))");
  EXPECT_EQ(query_text(parse_query("a<1&&b!=2&&c>=.5")), "(a < 1 && b != 2 && c >= 0.5)");
  EXPECT_EQ(query_text(parse_query("!!(a <= inf)")), "!(!(a <= inf))");
  EXPECT_EQ(query_text(parse_query("a > -inf")), "a > -inf");
  const QueryNode q = parse_query("energy > 1\n  && ux < 2");
  ASSERT_EQ(q.kids.size(), 2u);
  EXPECT_EQ(q.kids[1].line, 2);
  EXPECT_EQ(q.kids[1].column, 6);
}

TEST(Query, SyntaxErrorsSayWhereAndWhat) {
  EXPECT_NE(error_of("energy >").find("query 1:9: expected a field name, a number"), std::string::npos);
  EXPECT_NE(error_of("energy >").find("found the end of the query"), std::string::npos);
  EXPECT_NE(error_of("energy > 1.3 &&").find("query 1:16: expected"), std::string::npos);
  EXPECT_NE(error_of("energy > 1\n && ux <").find("query 2:9:"), std::string::npos);
  EXPECT_NE(error_of("x = 3").find("query 1:3: '=' alone is not an operator (use ==)"), std::string::npos);
  EXPECT_NE(error_of("x < 3 & y < 2").find("(use &&)"), std::string::npos);
  EXPECT_NE(error_of("(x < 3").find("query 1:7: expected ')'"), std::string::npos);
  EXPECT_NE(error_of("x < 3)").find("expected '&&', '||' or the end of the query, found ')'"), std::string::npos);
  EXPECT_NE(error_of("x < y").find("compares two fields"), std::string::npos);
  EXPECT_NE(error_of("3 < 4").find("compares two numbers"), std::string::npos);
  EXPECT_NE(error_of("energy == \"high\"").find("the string \"high\" cannot be compared"), std::string::npos);
  EXPECT_NE(error_of("1 < x > 2").find("must be a range"), std::string::npos);
  EXPECT_NE(error_of("x < 3x").find("'3x' is not a number"), std::string::npos);
  EXPECT_NE(error_of("x < 1e999").find("out of range"), std::string::npos);
  EXPECT_NE(error_of("position[1.5] < 2").find("a component number"), std::string::npos);
  EXPECT_NE(error_of("x < 2 # y").find("unexpected character '#'"), std::string::npos);
  EXPECT_NE(error_of("   ").find("the query is empty"), std::string::npos);
  EXPECT_NE(error_of("energy").find("expected a comparison"), std::string::npos);
}

TEST(Query, BindsFieldsComponentsAndChecksTypes) {
  const Schema s = vpic_schema();
  QueryNode q = parse_query("x > 1 && position[2] < 3 && energy >= 0 && id == 7");
  bind_query(q, s);
  EXPECT_EQ(q.kids[0].field_index, 0u);
  EXPECT_EQ(q.kids[0].bound_component, 0u);
  EXPECT_EQ(q.kids[1].bound_component, 2u);
  EXPECT_EQ(q.kids[2].field_index, 2u);
  EXPECT_EQ(query_fields(q), (std::vector<size_t>{0, 2, 3}));
  EXPECT_NE(error_of("temperature > 3", &s).find("query 1:1: unknown field 'temperature' (fields: position, ux"),
            std::string::npos);
  EXPECT_NE(error_of("ux > 0 || position > 3", &s).find("query 1:11: field 'position' has 3 components"),
            std::string::npos);
  EXPECT_NE(error_of("position[3] > 3", &s).find("[3] is not one of them"), std::string::npos);
  EXPECT_NE(error_of("ux[1] > 3", &s).find("has 1 component;"), std::string::npos);
  EXPECT_NE(error_of("id == 1.5", &s).find("holds integers (u8)"), std::string::npos);
  EXPECT_EQ(error_of("id < 1.5 && q != -3", &s), "no error");
}

// Row-by-row evaluation, independent of the column kernels.
bool oracle(const QueryNode& q, const std::vector<std::vector<double>>& cols, uint64_t r) {
  switch (q.kind) {
    case QueryNode::Kind::kNot: return !oracle(q.kids[0], cols, r);
    case QueryNode::Kind::kAnd:
      for (const auto& k : q.kids)
        if (!oracle(k, cols, r)) return false;
      return true;
    case QueryNode::Kind::kOr:
      for (const auto& k : q.kids)
        if (oracle(k, cols, r)) return true;
      return false;
    case QueryNode::Kind::kCompare: break;
  }
  const double v = cols[q.field_index * 3 + q.bound_component][r];
  switch (q.op) {
    case CmpOp::kLt: return v < q.value;
    case CmpOp::kLe: return v <= q.value;
    case CmpOp::kGt: return v > q.value;
    case CmpOp::kGe: return v >= q.value;
    case CmpOp::kEq: return v == q.value;
    case CmpOp::kNe: return v != q.value;
  }
  return false;
}

TEST(Query, ScanMatchesRowByRowOnRandomQueries) {
  const Schema s = vpic_schema();
  const uint64_t rows = 2000;
  Xoshiro256 rng(11);
  std::vector<float> pos(rows * 3), ux(rows);
  std::vector<double> energy(rows);
  std::vector<uint64_t> id(rows);
  std::vector<int16_t> qv(rows);
  std::vector<std::vector<double>> cols(15, std::vector<double>(rows, 0));
  for (uint64_t r = 0; r < rows; ++r) {
    for (int a = 0; a < 3; ++a) cols[a][r] = pos[3 * r + a] = static_cast<float>(rng.below(1000)) / 10.0f;
    cols[3][r] = ux[r] = static_cast<float>(static_cast<int>(rng.below(200)) - 100) / 8.0f;
    cols[6][r] = energy[r] =
        r % 97 == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(rng.below(500)) / 100.0;
    cols[9][r] = static_cast<double>(id[r] = rng.below(1u << 20));
    cols[12][r] = qv[r] = static_cast<int16_t>(static_cast<int>(rng.below(9)) - 4);
  }
  const void* data[] = {pos.data(), ux.data(), energy.data(), id.data(), qv.data()};
  const ColumnOf column = [&](size_t f) { return data[f]; };
  const char* names[] = {"x", "y", "position[2]", "ux", "energy", "id", "q"};
  const double scale[] = {100, 100, 100, 12, 5, 1 << 20, 4};
  const char* ops[] = {"<", "<=", ">", ">=", "==", "!="};
  std::function<std::string(int)> gen = [&](int depth) -> std::string {
    const uint64_t pick = depth > 3 ? 0 : rng.below(5);
    if (pick <= 1) {
      const int f = static_cast<int>(rng.below(7));
      const double v =
          std::round(static_cast<double>(rng.below(2001)) / 1000.0 * scale[f]) - (f == 3 || f == 6 ? scale[f] : 0);
      if (rng.below(4) == 0) return cat(v - scale[f] / 4, " < ", names[f], " <= ", v + scale[f] / 4);
      return cat(names[f], " ", ops[rng.below(6)], " ", v);
    }
    if (pick == 2) return "!(" + gen(depth + 1) + ")";
    return "(" + gen(depth + 1) + (pick == 3 ? " && " : " || ") + gen(depth + 1) + ")";
  };
  int nonempty = 0, nonfull = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::string text = gen(0);
    QueryNode q = parse_query(text);
    bind_query(q, s);
    std::vector<uint8_t> got;
    eval_query_scan(q, s, column, rows, got);
    uint64_t hits = 0;
    for (uint64_t r = 0; r < rows; ++r) {
      ASSERT_EQ(got[r] != 0, oracle(q, cols, r)) << text << " row " << r;
      hits += got[r];
    }
    nonempty += hits > 0;
    nonfull += hits < rows;
  }
  EXPECT_GT(nonempty, 100);   // the random queries select something, and not everything
  EXPECT_GT(nonfull, 100);
}

}  // namespace
}  // namespace lodex

namespace lodex {
namespace {
TEST(Query, NestingIsBounded) {
  std::string ok(kMaxQueryDepth - 1, '(');
  ok += "energy > 1" + std::string(kMaxQueryDepth - 1, ')');
  EXPECT_NO_THROW(parse_query(ok));
  std::string deep(5000, '(');
  deep += "energy > 1" + std::string(5000, ')');
  EXPECT_THROW(parse_query(deep), Error);
  EXPECT_THROW(parse_query(std::string(5000, '!') + "energy > 1"), Error);
  EXPECT_NO_THROW(parse_query(std::string(kMaxQueryDepth - 1, '!') + "energy > 1"));
}
}  // namespace
}  // namespace lodex
