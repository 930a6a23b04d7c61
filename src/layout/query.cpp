#include "layout/query.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.hpp"

namespace lodex {

const char* cmp_op_text(CmpOp op) {
  switch (op) {
    case CmpOp::kLt: return "<";
    case CmpOp::kLe: return "<=";
    case CmpOp::kGt: return ">";
    case CmpOp::kGe: return ">=";
    case CmpOp::kEq: return "==";
    case CmpOp::kNe: return "!=";
  }
  return "?";
}

namespace {

struct Token {
  enum class Kind : uint8_t {
    kEnd,
    kName,
    kNumber,
    kString,
    kOp,
    kAnd,
    kOr,
    kNot,
    kLParen,
    kRParen,
    kLBracket,
    kRBracket
  };
  Kind kind = Kind::kEnd;
  std::string text;
  double number = 0;
  CmpOp op = CmpOp::kLt;
  int line = 1, column = 1;
};

std::string describe(const Token& t) {
  switch (t.kind) {
    case Token::Kind::kEnd: return "the end of the query";
    case Token::Kind::kString: return "the string \"" + t.text + "\"";
    default: return "'" + t.text + "'";
  }
}

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skip_space();
      Token t;
      t.line = line_;
      t.column = column_;
      if (i_ >= s_.size()) {
        out.push_back(t);
        return out;
      }
      const char c = s_[i_];
      auto two = [&](char a, char b) { return c == a && i_ + 1 < s_.size() && s_[i_ + 1] == b; };
      if (two('&', '&')) t = sym(t, Token::Kind::kAnd, 2);
      else if (two('|', '|')) t = sym(t, Token::Kind::kOr, 2);
      else if (two('<', '=')) t = cmp(t, CmpOp::kLe, 2);
      else if (two('>', '=')) t = cmp(t, CmpOp::kGe, 2);
      else if (two('=', '=')) t = cmp(t, CmpOp::kEq, 2);
      else if (two('!', '=')) t = cmp(t, CmpOp::kNe, 2);
      else if (c == '<') t = cmp(t, CmpOp::kLt, 1);
      else if (c == '>') t = cmp(t, CmpOp::kGt, 1);
      else if (c == '!') t = sym(t, Token::Kind::kNot, 1);
      else if (c == '(') t = sym(t, Token::Kind::kLParen, 1);
      else if (c == ')') t = sym(t, Token::Kind::kRParen, 1);
      else if (c == '[') t = sym(t, Token::Kind::kLBracket, 1);
      else if (c == ']') t = sym(t, Token::Kind::kRBracket, 1);
      else if (c == '"' || c == '\'') t = string(t);
      else if (std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+') t = number(t);
      else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') t = name(t);
      else if (c == '=' || c == '&' || c == '|')
        fail(ErrorCode::kInvalidArgument, "query ", line_, ":", column_, ": '", c, "' alone is not an operator (use ",
             c == '='   ? "=="
             : c == '&' ? "&&"
                        : "||",
             ")");
      else fail(ErrorCode::kInvalidArgument, "query ", line_, ":", column_, ": unexpected character '", c, "'");
      out.push_back(std::move(t));
    }
  }

 private:
  void advance(size_t n) {
    for (size_t k = 0; k < n && i_ < s_.size(); ++k, ++i_) {
      if (s_[i_] == '\n') {
        ++line_;
        column_ = 1;
      } else {
        ++column_;
      }
    }
  }
  void skip_space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) advance(1);
  }
  Token sym(Token t, Token::Kind k, size_t n) {
    t.kind = k;
    t.text = std::string(s_.substr(i_, n));
    advance(n);
    return t;
  }
  Token cmp(Token t, CmpOp op, size_t n) {
    t = sym(t, Token::Kind::kOp, n);
    t.op = op;
    return t;
  }
  Token string(Token t) {
    const char q = s_[i_];
    size_t j = i_ + 1;
    while (j < s_.size() && s_[j] != q) ++j;
    if (j >= s_.size()) fail(ErrorCode::kInvalidArgument, "query ", line_, ":", column_, ": unterminated string");
    t.kind = Token::Kind::kString;
    t.text = std::string(s_.substr(i_ + 1, j - i_ - 1));
    advance(j + 1 - i_);
    return t;
  }
  Token name(Token t) {
    size_t j = i_;
    while (j < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[j])) || s_[j] == '_')) ++j;
    t.kind = Token::Kind::kName;
    t.text = std::string(s_.substr(i_, j - i_));
    advance(j - i_);
    if (t.text == "inf" || t.text == "infinity") {
      t.kind = Token::Kind::kNumber;
      t.number = std::numeric_limits<double>::infinity();
    }
    return t;
  }
  Token number(Token t) {
    size_t j = i_;
    bool negative = false;
    if (s_[j] == '-' || s_[j] == '+') {
      negative = s_[j] == '-';
      ++j;
    }
    const size_t body = j;
    while (j < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[j])) || s_[j] == '.' || s_[j] == '_' ||
                             ((s_[j] == '-' || s_[j] == '+') && (s_[j - 1] == 'e' || s_[j - 1] == 'E'))))
      ++j;
    const std::string_view text = s_.substr(body, j - body);
    t.kind = Token::Kind::kNumber;
    t.text = std::string(s_.substr(i_, j - i_));
    if (text == "inf" || text == "infinity") {
      t.number = std::numeric_limits<double>::infinity();
    } else {
      double v = 0;
      const auto r = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
      const bool plain = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.');
      if (!plain || r.ec == std::errc::invalid_argument || r.ptr != text.data() + text.size())
        fail(ErrorCode::kInvalidArgument, "query ", t.line, ":", t.column, ": '", t.text, "' is not a number");
      if (r.ec == std::errc::result_out_of_range)
        fail(ErrorCode::kInvalidArgument, "query ", t.line, ":", t.column, ": ", t.text,
             " is out of range of a double");
      t.number = v;
    }
    if (negative) t.number = -t.number;
    advance(j - i_);
    return t;
  }

  std::string_view s_;
  size_t i_ = 0;
  int line_ = 1, column_ = 1;
};

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : t_(std::move(toks)) {}

  QueryNode run() {
    QueryNode q = parse_or();
    if (peek().kind != Token::Kind::kEnd) expected("'&&', '||' or the end of the query");
    return q;
  }

 private:
  int depth_ = 0;
  const Token& peek() const { return t_[k_]; }
  const Token& take() { return t_[k_ < t_.size() - 1 ? k_++ : k_]; }
  [[noreturn]] void expected(const std::string& what) const {
    const Token& t = peek();
    fail(ErrorCode::kInvalidArgument, "query ", t.line, ":", t.column, ": expected ", what, ", found ", describe(t));
  }

  QueryNode join(QueryNode::Kind kind, Token::Kind sep, QueryNode (Parser::*next)()) {
    QueryNode first = (this->*next)();
    if (peek().kind != sep) return first;
    QueryNode n;
    n.kind = kind;
    n.line = first.line;
    n.column = first.column;
    n.kids.push_back(std::move(first));
    while (peek().kind == sep) {
      take();
      n.kids.push_back((this->*next)());
    }
    return n;
  }
  QueryNode parse_or() { return join(QueryNode::Kind::kOr, Token::Kind::kOr, &Parser::parse_and); }
  QueryNode parse_and() { return join(QueryNode::Kind::kAnd, Token::Kind::kAnd, &Parser::parse_unary); }

  // Parentheses and '!' nest by recursion here and in every evaluator: bounded, so a hostile
  // query is an error rather than a stack overflow.
  struct Nest {
    Parser& p;
    explicit Nest(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxQueryDepth)
        p.expected(cat("at most ", kMaxQueryDepth, " levels of parentheses and '!' (the query nests deeper)"));
    }
    ~Nest() { --p.depth_; }
  };

  QueryNode parse_unary() {
    const Nest nest(*this);
    const Token& t = peek();
    if (t.kind == Token::Kind::kNot) {
      QueryNode n;
      n.kind = QueryNode::Kind::kNot;
      n.line = t.line;
      n.column = t.column;
      take();
      n.kids.push_back(parse_unary());
      return n;
    }
    if (t.kind == Token::Kind::kLParen) {
      take();
      QueryNode inner = parse_or();
      if (peek().kind != Token::Kind::kRParen) expected("')'");
      take();
      return inner;
    }
    return parse_compare();
  }

  struct Operand {
    bool is_field = false;
    std::string name;
    int component = -1;
    double number = 0;
    int line = 1, column = 1;
  };

  Operand parse_operand() {
    const Token& t = peek();
    Operand o;
    o.line = t.line;
    o.column = t.column;
    if (t.kind == Token::Kind::kNumber) {
      o.number = take().number;
      return o;
    }
    if (t.kind == Token::Kind::kString)
      fail(ErrorCode::kInvalidArgument, "query ", t.line, ":", t.column, ": ", describe(t),
           " cannot be compared: fields hold numbers, compare them with numbers");
    if (t.kind != Token::Kind::kName) expected("a field name, a number, '(' or '!'");
    o.is_field = true;
    o.name = take().text;
    if (peek().kind == Token::Kind::kLBracket) {
      take();
      const Token& i = peek();
      double c = i.number;
      if (i.kind != Token::Kind::kNumber || c < 0 || c > 1e6 || c != std::floor(c))
        expected("a component number (0, 1, ...) after '['");
      take();
      o.component = static_cast<int>(c);
      if (peek().kind != Token::Kind::kRBracket) expected("']'");
      take();
    }
    return o;
  }

  static CmpOp flipped(CmpOp op) {
    switch (op) {
      case CmpOp::kLt: return CmpOp::kGt;
      case CmpOp::kLe: return CmpOp::kGe;
      case CmpOp::kGt: return CmpOp::kLt;
      case CmpOp::kGe: return CmpOp::kLe;
      default: return op;
    }
  }

  QueryNode compare(const Operand& a, CmpOp op, const Operand& b, const Token& op_token) {
    if (a.is_field == b.is_field)
      fail(ErrorCode::kInvalidArgument, "query ", op_token.line, ":", op_token.column, ": '", cmp_op_text(op),
           "' compares ", a.is_field ? "two fields" : "two numbers",
           ": each comparison needs one field and one number");
    QueryNode n;
    n.kind = QueryNode::Kind::kCompare;
    const Operand& f = a.is_field ? a : b;
    n.line = a.line;
    n.column = a.column;
    n.field = f.name;
    n.component = f.component;
    n.op = a.is_field ? op : flipped(op);
    n.value = a.is_field ? b.number : a.number;
    return n;
  }

  QueryNode parse_compare() {
    const Operand a = parse_operand();
    if (peek().kind != Token::Kind::kOp) expected("a comparison ('<', '<=', '>', '>=', '==', '!=')");
    const Token op1 = take();
    const Operand b = parse_operand();
    if (peek().kind != Token::Kind::kOp) return compare(a, op1.op, b, op1);
    // A chained range: number op field op number, both ops pointing the same way.
    const Token op2 = take();
    const Operand c = parse_operand();
    auto lower = [](CmpOp o) { return o == CmpOp::kLt || o == CmpOp::kLe; };
    auto upper = [](CmpOp o) { return o == CmpOp::kGt || o == CmpOp::kGe; };
    if (!b.is_field || a.is_field || c.is_field ||
        !((lower(op1.op) && lower(op2.op)) || (upper(op1.op) && upper(op2.op))))
      fail(ErrorCode::kInvalidArgument, "query ", op2.line, ":", op2.column,
           ": a chained comparison must be a range 'number < field < number' (or with >), not '", cmp_op_text(op1.op),
           "' then '", cmp_op_text(op2.op), "'");
    QueryNode n;
    n.kind = QueryNode::Kind::kAnd;
    n.line = a.line;
    n.column = a.column;
    n.kids.push_back(compare(a, op1.op, b, op1));
    n.kids.push_back(compare(b, op2.op, c, op2));
    return n;
  }

  std::vector<Token> t_;
  size_t k_ = 0;
};

bool is_integer_dtype(DType t) { return t != DType::kF4 && t != DType::kF8; }

template <class T, class Op>
void compare_into(const T* p, uint32_t stride, uint64_t rows, double v, Op op, uint8_t* out) {
  for (uint64_t r = 0; r < rows; ++r) out[r] = op(static_cast<double>(p[r * stride]), v) ? 1 : 0;
}

template <class T>
void compare_column(const T* p, uint32_t stride, uint64_t rows, CmpOp op, double v, uint8_t* out) {
  switch (op) {
    case CmpOp::kLt: return compare_into(p, stride, rows, v, [](double a, double b) { return a < b; }, out);
    case CmpOp::kLe: return compare_into(p, stride, rows, v, [](double a, double b) { return a <= b; }, out);
    case CmpOp::kGt: return compare_into(p, stride, rows, v, [](double a, double b) { return a > b; }, out);
    case CmpOp::kGe: return compare_into(p, stride, rows, v, [](double a, double b) { return a >= b; }, out);
    case CmpOp::kEq: return compare_into(p, stride, rows, v, [](double a, double b) { return a == b; }, out);
    case CmpOp::kNe: return compare_into(p, stride, rows, v, [](double a, double b) { return a != b; }, out);
  }
}

void eval_node(const QueryNode& q, const Schema& schema, const ColumnOf& column, uint64_t rows, uint8_t* out) {
  switch (q.kind) {
    case QueryNode::Kind::kCompare: {
      const FieldSpec& f = schema.field(q.field_index);
      const void* base = column(q.field_index);
      if (!base && rows > 0) fail(ErrorCode::kInternal, "no column for field '", f.name, "'");
      const uint32_t s = f.components, c = q.bound_component;
      switch (f.dtype) {
        case DType::kF4: return compare_column(static_cast<const float*>(base) + c, s, rows, q.op, q.value, out);
        case DType::kF8: return compare_column(static_cast<const double*>(base) + c, s, rows, q.op, q.value, out);
        case DType::kI1: return compare_column(static_cast<const int8_t*>(base) + c, s, rows, q.op, q.value, out);
        case DType::kU1: return compare_column(static_cast<const uint8_t*>(base) + c, s, rows, q.op, q.value, out);
        case DType::kI2: return compare_column(static_cast<const int16_t*>(base) + c, s, rows, q.op, q.value, out);
        case DType::kU2: return compare_column(static_cast<const uint16_t*>(base) + c, s, rows, q.op, q.value, out);
        case DType::kI4: return compare_column(static_cast<const int32_t*>(base) + c, s, rows, q.op, q.value, out);
        case DType::kU4: return compare_column(static_cast<const uint32_t*>(base) + c, s, rows, q.op, q.value, out);
        case DType::kI8: return compare_column(static_cast<const int64_t*>(base) + c, s, rows, q.op, q.value, out);
        case DType::kU8: return compare_column(static_cast<const uint64_t*>(base) + c, s, rows, q.op, q.value, out);
      }
      return;
    }
    case QueryNode::Kind::kNot:
      eval_node(q.kids[0], schema, column, rows, out);
      for (uint64_t r = 0; r < rows; ++r) out[r] ^= 1;
      return;
    case QueryNode::Kind::kAnd:
    case QueryNode::Kind::kOr: {
      eval_node(q.kids[0], schema, column, rows, out);
      std::vector<uint8_t> other(rows);
      for (size_t k = 1; k < q.kids.size(); ++k) {
        eval_node(q.kids[k], schema, column, rows, other.data());
        if (q.kind == QueryNode::Kind::kAnd)
          for (uint64_t r = 0; r < rows; ++r) out[r] &= other[r];
        else
          for (uint64_t r = 0; r < rows; ++r) out[r] |= other[r];
      }
      return;
    }
  }
}

}  // namespace

QueryNode parse_query(std::string_view text) {
  std::vector<Token> toks = Lexer(text).run();
  if (toks.size() == 1) fail(ErrorCode::kInvalidArgument, "query 1:1: the query is empty");
  return Parser(std::move(toks)).run();
}

void bind_query(QueryNode& q, const Schema& schema) {
  for (QueryNode& k : q.kids) bind_query(k, schema);
  if (q.kind != QueryNode::Kind::kCompare) return;
  auto where = [&] { return cat("query ", q.line, ":", q.column, ": "); };
  int component = q.component;
  size_t fi = 0;
  if (schema.has(q.field)) {
    fi = schema.index_of(q.field);
  } else if ((q.field == "x" || q.field == "y" || q.field == "z") && q.component < 0) {
    fi = schema.position_index();
    component = q.field[0] - 'x';
  } else {
    std::string names;
    for (const FieldSpec& f : schema.fields()) names += (names.empty() ? "" : ", ") + f.name;
    fail(ErrorCode::kInvalidArgument, where(), "unknown field '", q.field, "' (fields: ", names,
         "; x, y, z are the position's components)");
  }
  const FieldSpec& f = schema.field(fi);
  if (component < 0) {
    if (f.components > 1)
      fail(ErrorCode::kInvalidArgument, where(), "field '", f.name, "' has ", f.components, " components: write ",
           f.name, "[0] .. ", f.name, "[", f.components - 1, "]");
    component = 0;
  }
  if (static_cast<uint32_t>(component) >= f.components)
    fail(ErrorCode::kInvalidArgument, where(), "field '", f.name, "' has ", f.components, " component",
         f.components > 1 ? "s" : "", "; [", component, "] is not one of them");
  if (std::isnan(q.value)) fail(ErrorCode::kInvalidArgument, where(), "cannot compare with NaN");
  if (is_integer_dtype(f.dtype) && (q.op == CmpOp::kEq || q.op == CmpOp::kNe) && q.value != std::floor(q.value))
    fail(ErrorCode::kInvalidArgument, where(), "field '", f.name, "' holds integers (", dtype_name(f.dtype), "); '",
         cmp_op_text(q.op), " ", q.value, "' compares it with a number that is not an integer");
  q.field_index = fi;
  q.bound_component = static_cast<uint32_t>(component);
}

std::string query_text(const QueryNode& q) {
  switch (q.kind) {
    case QueryNode::Kind::kCompare: {
      std::string s = q.field;
      if (q.component >= 0) s += cat("[", q.component, "]");
      char buf[32];
      const auto r = std::to_chars(buf, buf + sizeof buf, q.value);   // shortest round trip
      return cat(s, " ", cmp_op_text(q.op), " ", std::string(buf, r.ptr));
    }
    case QueryNode::Kind::kNot: return "!(" + query_text(q.kids[0]) + ")";
    default: {
      std::string s = "(";
      for (size_t k = 0; k < q.kids.size(); ++k)
        s += (k ? (q.kind == QueryNode::Kind::kAnd ? " && " : " || ") : "") + query_text(q.kids[k]);
      return s + ")";
    }
  }
}

void eval_query_scan(const QueryNode& q, const Schema& schema, const ColumnOf& column, uint64_t rows,
                     std::vector<uint8_t>& out) {
  out.assign(rows, 0);
  eval_node(q, schema, column, rows, out.data());
}

std::vector<size_t> query_fields(const QueryNode& q) {
  std::vector<size_t> out;
  std::function<void(const QueryNode&)> walk = [&](const QueryNode& n) {
    if (n.kind == QueryNode::Kind::kCompare) out.push_back(n.field_index);
    for (const QueryNode& k : n.kids) walk(k);
  };
  walk(q);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace lodex
