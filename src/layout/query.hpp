// The value-query language over particle fields (Byna et al. 2012 §IV-B, FastQuery): comparisons of a
// field or one component with a number, combined with &&, ||, ! and parentheses; a chained
// range `157.654 < x < 162.441` is the && of its two comparisons. Pure: parsing, binding to a
// schema and evaluation over in-memory columns (the scan every indexed answer is checked
// against).
//
//   query   := or
//   or      := and ('||' and)*
//   and     := unary ('&&' unary)*
//   unary   := '!' unary | '(' or ')' | compare
//   compare := operand op operand (op operand)?       one side of each op a field, the other a number
//   operand := number | name ('[' integer ']')? | string
//   op      := '<' | '<=' | '>' | '>=' | '==' | '!='
//
// Numbers are decimal (`1.3`, `-2e-5`, `.5`, `42`) or `inf`, `-inf`. Names are
// [A-Za-z_][A-Za-z0-9_]*. Errors name the line and column and say what was expected.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/schema.hpp"

namespace lodex {

// Deepest nesting of parentheses and '!' a query may have (a deeper one is an InvalidArgument).
inline constexpr int kMaxQueryDepth = 256;

enum class CmpOp : uint8_t { kLt, kLe, kGt, kGe, kEq, kNe };
const char* cmp_op_text(CmpOp op);

struct QueryNode {
  enum class Kind : uint8_t { kCompare, kAnd, kOr, kNot };
  Kind kind = Kind::kCompare;
  int line = 1, column = 1;   // where the node starts in the text
  // kCompare: `field[component] op value` (the field always on the left once parsed).
  std::string field;
  int component = -1;         // -1: no [i] written
  CmpOp op = CmpOp::kLt;
  double value = 0;
  // Set by bind_query: the schema's field and the component compared.
  size_t field_index = 0;
  uint32_t bound_component = 0;
  std::vector<QueryNode> kids;   // kAnd / kOr: two or more; kNot: one
};

// Throws InvalidArgument "query line:column: expected ..., found ...".
QueryNode parse_query(std::string_view text);

// Resolves every comparison against `schema`: a field by name, `name[i]` a component, and `x`,
// `y`, `z` the components of the position field when no field has that name. A field of several
// components needs [i]. An integer field compared for (in)equality with a number that is not an
// integer is an error. Throws InvalidArgument naming the line and column.
void bind_query(QueryNode& query, const Schema& schema);

// Canonical text of a parsed query (fully parenthesised; for messages and tests).
std::string query_text(const QueryNode& query);

// The columns a scan reads: field i's data, `rows` rows of its components, row-major.
using ColumnOf = std::function<const void*(size_t field_index)>;

// Evaluates a bound query over `rows` rows: out[r] = 1 where row r matches, else 0. NaN matches
// only `!=`, like IEEE comparisons.
void eval_query_scan(const QueryNode& query, const Schema& schema, const ColumnOf& column, uint64_t rows,
                     std::vector<uint8_t>& out);

// The fields a query reads, ascending schema indices, no repeats.
std::vector<size_t> query_fields(const QueryNode& query);

}  // namespace lodex
