// sink_rule.cpp — the growth expressions of the sink protocol's greeting (sink_protocol.hpp):
// C's integer operators and precedence over five names, parsed once, evaluated before every
// write.
#include <cctype>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "sinkcheck/conform/sink_protocol.hpp"

namespace sinkcheck::conform::sink_protocol {
namespace {

using node = rule_expression::node;
using kind = node::kind;

/// The binary operators by precedence level, loosest first (C's order; ?: is looser still).
struct binary_operator {
    std::string_view spelling;
    int level;
    kind what;
};
constexpr binary_operator binary_operators[] = {
    {"||", 0, kind::logical_or}, {"&&", 1, kind::logical_and},
    {"==", 2, kind::equal},      {"!=", 2, kind::not_equal},
    {"<<", 4, kind::shift_left}, {">>", 4, kind::shift_right},
    {"<=", 3, kind::less_equal}, {">=", 3, kind::greater_equal},
    {"<", 3, kind::less},        {">", 3, kind::greater},
    {"+", 5, kind::add},         {"-", 5, kind::subtract},
    {"*", 6, kind::multiply},    {"/", 6, kind::divide},
    {"%", 6, kind::remainder},
};
constexpr int tightest_binary = 6;
/// The longest expression a greeting may give (a table of size classes as nested ?: fits).
constexpr std::size_t max_text = 16384;

struct named {
    std::string_view name;
    kind what;
};
constexpr named names[] = {{"capacity", kind::capacity},
                           {"size", kind::size},
                           {"position", kind::position},
                           {"length", kind::length},
                           {"needed", kind::needed}};

class parser {
public:
    parser(std::string_view text, std::vector<node>& nodes) : text_(text), nodes_(nodes) {}

    std::size_t whole() {
        const std::size_t root = conditional();
        skip_space();
        if (at_ < text_.size()) fail("unexpected '" + std::string(1, text_[at_]) + "'");
        return root;
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument("growth expression '" + std::string(text_) + "', character " +
                                    std::to_string(at_ + 1) + ": " + what);
    }

    void skip_space() {
        while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_])) != 0) ++at_;
    }

    bool take(std::string_view token) {
        skip_space();
        if (text_.substr(at_, token.size()) != token) return false;
        at_ += token.size();
        return true;
    }

    void expect(std::string_view token) {
        if (!take(token)) fail("expected '" + std::string(token) + "'");
    }

    std::size_t add(kind what, std::size_t a = 0, std::size_t b = 0, std::size_t c = 0, std::uint64_t value = 0) {
        node n;
        n.what = what;
        n.value = value;
        n.operand[0] = a;
        n.operand[1] = b;
        n.operand[2] = c;
        nodes_.push_back(n);
        return nodes_.size() - 1;
    }

    /// Parentheses, branches and `!` nest at most this deep (the parser recurses on each).
    static constexpr int max_depth = 256;

    struct nesting {
        explicit nesting(parser& p) : p_(p) {
            if (++p_.depth_ > max_depth) p_.fail("nested more than " + std::to_string(max_depth) + " deep");
        }
        ~nesting() { --p_.depth_; }
        nesting(const nesting&) = delete;
        nesting& operator=(const nesting&) = delete;
        parser& p_;
    };

    /// c ? a : b, right to left
    std::size_t conditional() {
        const nesting level(*this);
        const std::size_t condition = binary(0);
        if (!take("?")) return condition;
        const std::size_t then = conditional();
        expect(":");
        const std::size_t otherwise = conditional();
        return add(kind::choose, condition, then, otherwise);
    }

    std::size_t binary(int level) {
        if (level > tightest_binary) return unary();
        std::size_t left = binary(level + 1);
        for (;;) {
            const binary_operator* found = nullptr;
            skip_space();
            for (const binary_operator& op : binary_operators) {
                // longest spellings first in the table, so "<=" is not read as "<"
                if (op.level == level && text_.substr(at_, op.spelling.size()) == op.spelling) {
                    found = &op;
                    break;
                }
            }
            // "<" must not take the first character of "<<" (a tighter level)
            if (found == nullptr || (found->spelling.size() == 1 && at_ + 1 < text_.size() &&
                                     (text_[at_ + 1] == '<' || text_[at_ + 1] == '>' || text_[at_ + 1] == '=' ||
                                      text_[at_ + 1] == '&' || text_[at_ + 1] == '|'))) {
                return left;
            }
            at_ += found->spelling.size();
            left = add(found->what, left, binary(level + 1));
        }
    }

    std::size_t unary() {
        if (take("!")) {
            const nesting level(*this);
            return add(kind::logical_not, unary());
        }
        return primary();
    }

    std::size_t primary() {
        skip_space();
        if (at_ >= text_.size()) fail("the expression ends early");
        if (take("(")) {
            const std::size_t inner = conditional();
            expect(")");
            return inner;
        }
        if (std::isdigit(static_cast<unsigned char>(text_[at_])) != 0) return number();
        const std::size_t start = at_;
        while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) != 0 || text_[at_] == '_')) {
            ++at_;
        }
        const std::string_view word = text_.substr(start, at_ - start);
        if (word.empty()) fail("unexpected '" + std::string(1, text_[at_]) + "'");
        if (word == "max" || word == "min") return extremum(word == "max" ? kind::max : kind::min);
        for (const named& n : names) {
            if (n.name == word) return add(n.what);
        }
        at_ = start;
        fail("unknown name '" + std::string(word) + "' (capacity, size, position, length, needed, max, min)");
    }

    std::size_t number() {
        std::uint64_t v = 0;
        while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_])) != 0) {
            const auto digit = static_cast<std::uint64_t>(text_[at_] - '0');
            if (v > (UINT64_MAX - digit) / 10) fail("number out of range");
            v = v * 10 + digit;
            ++at_;
        }
        return add(kind::number, 0, 0, 0, v);
    }

    /// max(a, b, ...) as max(max(a, b), ...)
    std::size_t extremum(kind what) {
        expect("(");
        std::size_t result = conditional();
        expect(",");
        do {
            result = add(what, result, conditional());
        } while (take(","));
        expect(")");
        return result;
    }

    std::string_view text_;
    std::size_t at_ = 0;
    int depth_ = 0;
    std::vector<node>& nodes_;
};

}  // namespace

rule_expression rule_expression::parse(std::string_view text) {
    // Parsing and evaluation recurse once per level of nesting: bounded text and depth bound both.
    if (text.size() > max_text) {
        throw std::invalid_argument("growth expression of " + std::to_string(text.size()) + " characters (at most " +
                                    std::to_string(max_text) + ")");
    }
    rule_expression r;
    r.text_ = std::string(text);
    r.root_ = parser(r.text_, r.nodes_).whole();
    return r;
}

namespace {

/// Evaluates one node; ?:, && and || evaluate only the operands C would (so a guarded
/// subtraction, `size > 8 ? size - 8 : 0`, is never evaluated below zero).
class evaluator {
public:
    evaluator(const std::vector<node>& nodes, const rule_expression::inputs& in, const std::string& text)
        : nodes_(nodes), in_(in), text_(text) {}

    std::uint64_t value_of(std::size_t i) const {
        const node& n = nodes_[i];
        switch (n.what) {
            case kind::number: return n.value;
            case kind::capacity: return in_.capacity;
            case kind::size: return in_.size;
            case kind::position: return in_.position;
            case kind::length: return in_.length;
            case kind::needed: return in_.needed;
            case kind::choose: return value_of(n.operand[0]) != 0 ? value_of(n.operand[1]) : value_of(n.operand[2]);
            case kind::logical_and: return value_of(n.operand[0]) != 0 && value_of(n.operand[1]) != 0 ? 1 : 0;
            case kind::logical_or: return value_of(n.operand[0]) != 0 || value_of(n.operand[1]) != 0 ? 1 : 0;
            case kind::logical_not: return value_of(n.operand[0]) == 0 ? 1 : 0;
            default: return binary(n.what, value_of(n.operand[0]), value_of(n.operand[1]));
        }
    }

private:
    std::uint64_t binary(kind what, std::uint64_t a, std::uint64_t b) const {
        switch (what) {
            case kind::add:
                if (a > UINT64_MAX - b) fail("a sum past 2^64");
                return a + b;
            case kind::subtract:
                if (b > a) fail("a subtraction below zero");
                return a - b;
            case kind::multiply:
                if (a != 0 && b > UINT64_MAX / a) fail("a product past 2^64");
                return a * b;
            case kind::divide:
                if (b == 0) fail("a division by zero");
                return a / b;
            case kind::remainder:
                if (b == 0) fail("a division by zero");
                return a % b;
            case kind::shift_left: return b >= 64 ? 0 : a << b;
            case kind::shift_right: return b >= 64 ? 0 : a >> b;
            case kind::less: return a < b ? 1 : 0;
            case kind::less_equal: return a <= b ? 1 : 0;
            case kind::greater: return a > b ? 1 : 0;
            case kind::greater_equal: return a >= b ? 1 : 0;
            case kind::equal: return a == b ? 1 : 0;
            case kind::not_equal: return a != b ? 1 : 0;
            case kind::max: return a > b ? a : b;
            case kind::min: return a < b ? a : b;
            default: return 0;  // not a binary operator: value_of handles it
        }
    }

    [[noreturn]] void fail(const char* what) const {
        throw std::domain_error("growth expression '" + text_ + "': " + what + " (capacity " +
                                std::to_string(in_.capacity) + ", size " + std::to_string(in_.size) + ", position " +
                                std::to_string(in_.position) + ", length " + std::to_string(in_.length) + ", needed " +
                                std::to_string(in_.needed) + ")");
    }

    const std::vector<node>& nodes_;
    const rule_expression::inputs& in_;
    const std::string& text_;
};

}  // namespace

std::uint64_t rule_expression::evaluate(const inputs& in) const { return evaluator(nodes_, in, text_).value_of(root_); }

}  // namespace sinkcheck::conform::sink_protocol
