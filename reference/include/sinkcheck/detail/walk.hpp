// sinkcheck/detail/walk.hpp — depth-first traversal of a basic_json without recursion.
//
// Every encoder walks the value through this one loop, so no encoder can overflow the stack on
// a deeply nested value (depth 100,000 encodes like depth 1), and every encoder error gets the
// JSON pointer of the value being written, computed from the walk's own stack only when an error
// is thrown. The first 32 levels live in the walker itself: a shallow document costs no heap
// allocation for the traversal.
//
// A Format handler provides:
//   std::size_t position() const;                          bytes written so far (for marks)
//   void value(const Json& j, frame* parent);             a non-container value
//   bool open(const Json& j, frame& f, frame* parent);    start of an array/object; false when
//                                                         the handler wrote it whole (no descent)
//   void member(frame& f, const Json& child);             before each child; f.key is the key
//                                                         (objects) or null, f.index its index
//   void close(frame& f);                                 after the last child
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "sinkcheck/error.hpp"
#include "sinkcheck/options.hpp"

namespace sinkcheck::detail {

inline constexpr std::size_t no_child = static_cast<std::size_t>(-1);

template <class Json>
struct frame {
    using array_t = typename Json::array_t;
    using object_t = typename Json::object_t;
    using string_t = typename Json::string_t;

    const Json* node = nullptr;
    typename array_t::const_iterator ait{}, aend{};
    typename object_t::const_iterator oit{}, oend{};
    /// index of the child being written, no_child before the first and while closing
    std::size_t index = no_child;
    /// key of the child being written (objects only)
    const string_t* key = nullptr;
    /// owned by the format handler (UBJSON: the '$' marker; BSON: a size or a patch offset)
    std::uint64_t aux = 0;
    std::uint32_t flags = 0;
    /// node->is_object(), kept here so the walk loop does not reload the node for it
    bool object = false;

    bool is_object() const noexcept { return object; }
};

/// A stack whose first N entries need no heap allocation.
template <class T, std::size_t N>
class small_stack {
public:
    bool empty() const noexcept { return size_ == 0; }
    std::size_t size() const noexcept { return size_; }
    void clear() noexcept {
        size_ = 0;
        heap_.clear();
    }
    void push(const T& v) {
        if (size_ < N) {
            inline_[size_] = v;
        } else {
            heap_.push_back(v);
        }
        ++size_;
    }
    void pop() noexcept {
        --size_;
        if (size_ >= N) {
            heap_.pop_back();
        }
    }
    T& operator[](std::size_t i) noexcept { return i < N ? inline_[i] : heap_[i - N]; }
    const T& operator[](std::size_t i) const noexcept { return i < N ? inline_[i] : heap_[i - N]; }
    T& top() noexcept { return (*this)[size_ - 1]; }

private:
    T inline_[N]{};
    std::vector<T> heap_;
    std::size_t size_ = 0;
};

/// Appends RFC 6901 escaping of a key to a pointer ('~' -> "~0", '/' -> "~1").
inline void append_pointer_token(std::string& out, const std::string& token) {
    out += '/';
    for (char c : token) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
}

template <class Json>
class walker {
public:
    using frame_type = frame<Json>;

    /// Walks root depth-first, calling the handler (see the header comment). An encode_error
    /// thrown by the handler leaves with the pointer of the value being written.
    template <class Handler>
    void run(const Json& root, Handler& handler, std::vector<value_mark>* marks = nullptr) {
        stack_.clear();
        unstacked_ = nullptr;
        try {
            // Two instantiations, so the loop without marks carries no test for them per value.
            if (marks != nullptr) {
                walk<true>(root, handler, marks);
            } else {
                walk<false>(root, handler, nullptr);
            }
        } catch (encode_error& e) {
            if (!e.has_pointer()) {
                e.set_pointer(pointer());
            }
            throw;
        }
    }

    /// The JSON pointer of the value being written now.
    std::string pointer() const {
        std::string out;
        const auto token = [&out](const frame_type& f) {
            if (f.index == no_child) {
                return false;
            }
            if (f.key != nullptr) {
                append_pointer_token(out, *f.key);
            } else {
                append_pointer_token(out, std::to_string(f.index));
            }
            return true;
        };
        for (std::size_t i = 0; i < stack_.size(); ++i) {
            if (!token(stack_[i])) {
                return out;
            }
        }
        if (unstacked_ != nullptr) {
            token(*unstacked_);
        }
        return out;
    }

    std::size_t depth() const noexcept { return stack_.size(); }

private:
    // The top frame's children are written by one tight loop (children() below) that goes back
    // to the stack only when a child opens a frame of its own: an array of a million numbers
    // costs one iterator step and one type test per number, not a stack round trip each.
    template <bool Marks, class Handler>
    void walk(const Json& root, Handler& handler, std::vector<value_mark>* marks) {
        if constexpr (Marks) {
            marks->push_back({handler.position(), std::string()});
        }
        if (!root.is_structured()) {
            handler.value(root, nullptr);
            return;
        }
        open<Marks>(root, handler, nullptr);
        while (!stack_.empty()) {
            frame_type& f = stack_.top();
            const bool done = f.object ? children<Marks>(f, f.oit, f.oend, handler, marks)
                                       : children<Marks>(f, f.ait, f.aend, handler, marks);
            if (done) {
                f.index = no_child;
                f.key = nullptr;
                handler.close(f);
                stack_.pop();
            }
        }
    }

    /// Writes f's remaining children; true when all are written, false when one of them pushed
    /// a frame (which may have moved f: the caller must take the top afresh). With Unstacked (f is
    /// not on the stack: open() writes it), false at its first container child instead, which is
    /// left unwritten for the stack's loop.
    template <bool Marks, bool Unstacked = false, class Iterator, class Handler>
    bool children(frame_type& f, Iterator& it, const Iterator end, Handler& handler, std::vector<value_mark>* marks) {
        while (it != end) {
            const Json* child;
            if constexpr (std::is_same_v<Iterator, typename frame_type::object_t::const_iterator>) {
                child = &it->second;
            } else {
                child = &*it;
            }
            if constexpr (Unstacked) {
                if (child->is_structured()) {
                    return false;
                }
            }
            if constexpr (std::is_same_v<Iterator, typename frame_type::object_t::const_iterator>) {
                f.key = &it->first;
            }
            ++it;
            ++f.index;  // no_child + 1 wraps to 0: the first child
            if constexpr (Marks) {
                marks->push_back({handler.position(), pointer()});
            }
            handler.member(f, *child);
            if (!Unstacked && child->is_structured()) {
                if (open<Marks>(*child, handler, &f)) {
                    return false;
                }
            } else {
                handler.value(*child, &f);
            }
        }
        return true;
    }

    /// Containers of at most this many children are written by open() up to their first
    /// container child without going on the stack.
    static constexpr std::size_t unstacked_children = 16;

    /// Calls handler.open for a container; true when a frame was pushed for its children. A
    /// small container whose children are all scalars (a coordinate pair, a record of numbers and
    /// strings) is written here whole, in a frame that never goes on the stack: the pair
    /// [longitude, latitude] of a GeoJSON costs no push, no pop and no return to the walk loop.
    /// The frame goes on the stack at its first container child, from where the loop goes on.
    template <bool Marks, class Handler>
    bool open(const Json& j, Handler& handler, frame_type* parent) {
        frame_type f;
        f.node = &j;
        bool small;
        if (j.is_array()) {
            const auto& a = j.template get_ref<const typename Json::array_t&>();
            f.ait = a.begin();
            f.aend = a.end();
            small = a.size() <= unstacked_children;
        } else {
            const auto& o = j.template get_ref<const typename Json::object_t&>();
            f.oit = o.begin();
            f.oend = o.end();
            f.object = true;
            small = o.size() <= unstacked_children;
        }
        if (!handler.open(j, f, parent)) {
            return false;
        }
        // A mark records the pointer of each value, so marks go the long way; so do large
        // containers, whose push costs little per child, and whose children the loop of
        // children() writes with the handler's hot functions inlined into it.
        if (!Marks && small) {
            bool done;
            {
                const unstacked_frame in_flight(*this, f);
                try {
                    done = f.object ? children<false, true>(f, f.oit, f.oend, handler, nullptr)
                                    : children<false, true>(f, f.ait, f.aend, handler, nullptr);
                } catch (encode_error& e) {
                    if (!e.has_pointer()) {
                        e.set_pointer(pointer());  // while f, off the stack, is still there to name
                    }
                    throw;
                }
            }
            if (done) {
                f.index = no_child;
                f.key = nullptr;
                handler.close(f);
                return false;
            }
        }
        stack_.push(f);  // parent may dangle from here on
        return true;
    }

    /// Names the frame open() writes whole, off the stack, to pointer() while it is written.
    class unstacked_frame {
    public:
        unstacked_frame(walker& w, const frame_type& f) noexcept : w_(w) { w_.unstacked_ = &f; }
        ~unstacked_frame() { w_.unstacked_ = nullptr; }
        unstacked_frame(const unstacked_frame&) = delete;
        unstacked_frame& operator=(const unstacked_frame&) = delete;

    private:
        walker& w_;
    };

    small_stack<frame_type, 32> stack_;
    const frame_type* unstacked_ = nullptr;  // the frame open() is writing whole, if any
};

/// True when pred(node, key) holds for some node of root (key: the member's key or null).
/// Iterative, so it is safe on values of any depth.
template <class Json, class Pred>
bool any_node(const Json& root, Pred pred) {
    struct scanner {
        Pred& pred;
        bool found = false;
        std::size_t position() const noexcept { return 0; }
        void value(const Json& j, frame<Json>* parent) { check(j, parent); }
        bool open(const Json& j, frame<Json>&, frame<Json>* parent) {
            check(j, parent);
            return !found;
        }
        void member(frame<Json>&, const Json&) {}
        void close(frame<Json>&) {}
        void check(const Json& j, frame<Json>* parent) {
            if (!found && pred(j, parent != nullptr ? parent->key : nullptr)) {
                found = true;
            }
        }
    };
    scanner s{pred};
    walker<Json> w;
    w.run(root, s);
    return s.found;
}

}  // namespace sinkcheck::detail
