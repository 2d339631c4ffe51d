// The encoder side of the sinkcheck conformance protocol for encoders written in Go, the
// counterpart of ../python/sinkcheck_protocol.py (docs/conformance.md, "The protocol").
//
// An adapter is one function, encode(value, request) ([]byte, error), handed to serve(). It
// returns an *unsupported error to declare a value unsupported, a *refused error (its library's
// error, wrapped) to refuse it; a panic is an error of the adapter, not an answer: the process
// exits 70 and the runner grades the vector a crash.
//
// Values arrive in the JSON notation (--notation json; docs/cli.md, "Values JSON text cannot
// hold") and become a tree that keeps what Go's own JSON decoding loses: integers of any size
// (int64, uint64 or *big.Int), float64 with its bits (NaN payloads, -0), strings as the bytes
// they hold, binary with its subtype, objects with their members in the vector's order, and the
// discarded value. A notation object the helper cannot read is an error of the protocol, never
// "unsupported": the process stops with the reason (exit 70).
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Per-vector exit statuses (docs/conformance.md, "Per-vector mode").
const (
	exitRefused     = 65
	exitUnsupported = 77
	exitSoftware    = 70
)

type unsupported struct{ reason string }

func (u *unsupported) Error() string { return u.reason }

type refused struct{ err error }

func (r *refused) Error() string { return r.err.Error() }

// binaryValue is a byte string with a subtype (a CBOR tag, a MessagePack ext type).
type binaryValue struct {
	data    []byte
	subtype uint64
}

// member is one key and value of an object, in the order the vector gave them.
type member struct {
	key   string
	value interface{}
}

type object struct{ members []member }

type discarded struct{}

// request is one value to encode and the header lines that came with it.
type request struct {
	format  string
	useSize bool
	useType bool
	value   interface{}
}

// rawObject is an object as the JSON text wrote it, before the notation is applied: whether an
// object is notation depends on where it stands ({"$object": {...}} holds data).
type rawObject struct {
	keys   []string
	values []interface{}
}

// readJSON reads one JSON text into nil, bool, json.Number, string, []interface{} and
// *rawObject, keeping member order. encoding/json's Token() reads without recursing.
func readJSON(text []byte) (interface{}, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	type frame struct {
		array  *[]interface{}
		object *rawObject
		key    *string
	}
	var stack []frame
	var root interface{}
	done := false
	place := func(v interface{}) {
		if len(stack) == 0 {
			root = v
			done = true
			return
		}
		top := &stack[len(stack)-1]
		if top.array != nil {
			*top.array = append(*top.array, v)
		} else {
			top.object.keys = append(top.object.keys, *top.key)
			top.object.values = append(top.object.values, v)
			top.key = nil
		}
	}
	for !done {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		if len(stack) > 0 && stack[len(stack)-1].object != nil && stack[len(stack)-1].key == nil {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				o := stack[len(stack)-1].object
				stack = stack[:len(stack)-1]
				place(o)
				continue
			}
			k := tok.(string)
			stack[len(stack)-1].key = &k
			continue
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '[':
				a := make([]interface{}, 0)
				stack = append(stack, frame{array: &a})
			case '{':
				stack = append(stack, frame{object: &rawObject{}})
			case ']':
				a := *stack[len(stack)-1].array
				stack = stack[:len(stack)-1]
				place(a)
			}
		default:
			place(t)
		}
	}
	if dec.More() {
		return nil, fmt.Errorf("text after the value at byte %d", dec.InputOffset())
	}
	return root, nil
}

// notationError names the JSON pointer of a notation object the helper cannot read.
func notationError(at string, format string, args ...interface{}) error {
	return fmt.Errorf("JSON notation at %q: %s", at, fmt.Sprintf(format, args...))
}

func isHex(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return false
		}
	}
	return true
}

func hexBytes(v interface{}, at, name string) ([]byte, error) {
	s, ok := v.(string)
	if !ok || len(s)%2 != 0 || !isHex(s) {
		return nil, notationError(at, "%s holds a string of an even number of hex digits", name)
	}
	out := make([]byte, len(s)/2)
	_, err := hex.Decode(out, []byte(s))
	return out, err
}

// integer reads a decimal as int64 (negative), uint64 (not negative) or *big.Int (beyond 64 bits).
func integer(digits string) (interface{}, bool) {
	if u, err := strconv.ParseUint(digits, 10, 64); err == nil {
		return u, true
	}
	if i, err := strconv.ParseInt(digits, 10, 64); err == nil {
		return i, true
	}
	b, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return nil, false
	}
	return b, true
}

// decimalString is the digits of a notation integer given as a JSON integer or a string.
func decimalString(v interface{}, at, name string) (string, error) {
	switch t := v.(type) {
	case json.Number:
		if !strings.ContainsAny(string(t), ".eE") {
			return string(t), nil
		}
	case string:
		return t, nil
	}
	return "", notationError(at, "%s holds an integer, as a number or a string of decimal digits", name)
}

// floatValue reads {"$float": ...}: "nan", "inf", "-inf", the binary64 bits as 16 hex digits
// (with or without "0x"), or a decimal.
func floatValue(v interface{}, at string) (float64, error) {
	s, ok := v.(string)
	if !ok {
		return 0, notationError(at, "$float holds a string")
	}
	switch s {
	case "nan":
		return math.NaN(), nil
	case "inf":
		return math.Inf(1), nil
	case "-inf":
		return math.Inf(-1), nil
	}
	bits := strings.TrimPrefix(s, "0x")
	if len(bits) == 16 && isHex(bits) && (bits != s || !strings.ContainsAny(s, ".eE+-")) {
		u, err := strconv.ParseUint(bits, 16, 64)
		if err != nil {
			return 0, notationError(at, "$float bits %q: %v", s, err)
		}
		return math.Float64frombits(u), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !strings.Contains(err.Error(), "range") {
		return 0, notationError(at, "$float holds %q, not a number", s)
	}
	return f, nil
}

func keyBytes(v interface{}, at string) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case *rawObject:
		if len(t.keys) == 1 && t.keys[0] == "$string" {
			b, err := hexBytes(t.values[0], at, "$string")
			return string(b), err
		}
	}
	return "", notationError(at, "a key is a string or {\"$string\": hex}")
}

func hasKeys(o *rawObject, keys ...string) bool {
	if len(o.keys) != len(keys) {
		return false
	}
	for _, k := range keys {
		found := false
		for _, have := range o.keys {
			found = found || have == k
		}
		if !found {
			return false
		}
	}
	return true
}

func (o *rawObject) get(k string) interface{} {
	for i, have := range o.keys {
		if have == k {
			return o.values[i]
		}
	}
	return nil
}

// fromNotation applies the notation to what readJSON read. Values nest at most 100,000 deep and
// Go's stacks grow, so recursion is safe here.
func fromNotation(v interface{}, at string) (interface{}, error) {
	switch t := v.(type) {
	case nil, bool, string:
		return t, nil
	case json.Number:
		s := string(t)
		if strings.ContainsAny(s, ".eE") {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, notationError(at, "number %q: %v", s, err)
			}
			return f, nil
		}
		i, ok := integer(s)
		if !ok {
			return nil, notationError(at, "integer %q", s)
		}
		return i, nil
	case []interface{}:
		out := make([]interface{}, len(t))
		for i, e := range t {
			c, err := fromNotation(e, at+"/"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case *rawObject:
		return objectFromNotation(t, at)
	}
	return nil, notationError(at, "unexpected %T", v)
}

func objectFromNotation(o *rawObject, at string) (interface{}, error) {
	switch {
	case hasKeys(o, "$binary"), hasKeys(o, "$binary", "$subtype"):
		data, err := hexBytes(o.get("$binary"), at, "$binary")
		if err != nil {
			return nil, err
		}
		if len(o.keys) == 1 {
			return data, nil
		}
		digits, err := decimalString(o.get("$subtype"), at, "$subtype")
		if err != nil {
			return nil, err
		}
		sub, err := strconv.ParseUint(digits, 10, 64)
		if err != nil {
			return nil, notationError(at, "$subtype %q: %v", digits, err)
		}
		return binaryValue{data, sub}, nil
	case hasKeys(o, "$float"):
		return floatValue(o.get("$float"), at)
	case hasKeys(o, "$integer"):
		digits, err := decimalString(o.get("$integer"), at, "$integer")
		if err != nil {
			return nil, err
		}
		i, ok := integer(digits)
		if !ok {
			return nil, notationError(at, "$integer %q", digits)
		}
		return i, nil
	case hasKeys(o, "$string"):
		b, err := hexBytes(o.get("$string"), at, "$string")
		return string(b), err
	case hasKeys(o, "$discarded"):
		if o.get("$discarded") != true {
			return nil, notationError(at, "$discarded holds true")
		}
		return discarded{}, nil
	case hasKeys(o, "$members"):
		list, ok := o.get("$members").([]interface{})
		if !ok {
			return nil, notationError(at, "$members holds an array of [key, value] pairs")
		}
		out := &object{members: make([]member, 0, len(list))}
		for i, p := range list {
			here := at + "/$members/" + strconv.Itoa(i)
			pair, ok := p.([]interface{})
			if !ok || len(pair) != 2 {
				return nil, notationError(here, "a member is a [key, value] pair")
			}
			k, err := keyBytes(pair[0], here+"/0")
			if err != nil {
				return nil, err
			}
			value, err := fromNotation(pair[1], here+"/1")
			if err != nil {
				return nil, err
			}
			out.members = append(out.members, member{k, value})
		}
		return out, nil
	case hasKeys(o, "$object"):
		inner, ok := o.get("$object").(*rawObject)
		if !ok {
			return nil, notationError(at, "$object holds an object")
		}
		return plainObject(inner, at+"/$object")
	}
	return plainObject(o, at)
}

func plainObject(o *rawObject, at string) (interface{}, error) {
	out := &object{members: make([]member, 0, len(o.keys))}
	for i, k := range o.keys {
		value, err := fromNotation(o.values[i], at+"/"+k)
		if err != nil {
			return nil, err
		}
		out.members = append(out.members, member{k, value})
	}
	return out, nil
}

// parseValue reads a value in the JSON notation.
func parseValue(text []byte) (interface{}, error) {
	raw, err := readJSON(text)
	if err != nil {
		return nil, fmt.Errorf("the value is not JSON text: %v", err)
	}
	return fromNotation(raw, "")
}

type encodeFunc func(request) ([]byte, error)

// answer is (status, payload): 0 encoded, 1 refused, 2 unsupported. A value the helper cannot
// read, or an error that is neither a refusal nor unsupported, stops the process.
func answer(encode encodeFunc, fields map[string]string, text []byte) (byte, []byte) {
	value, err := parseValue(text)
	if err != nil {
		fail("%s: %v", fields["id"], err)
	}
	out, err := encode(request{fields["format"], fields["use_size"] == "1", fields["use_type"] == "1", value})
	switch e := err.(type) {
	case nil:
		return 0, out
	case *unsupported:
		return 2, []byte(e.reason)
	case *refused:
		return 1, []byte(e.Error())
	}
	fail("%s: the adapter returned an error that is no answer: %v", fields["id"], err)
	return 0, nil
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(exitSoftware)
}

func serveBatch(encode encodeFunc) {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	head := make([]byte, 4)
	for {
		if _, err := io.ReadFull(in, head); err != nil {
			if err == io.EOF {
				return
			}
			fail("batch: reading a request's length: %v", err)
		}
		payload := make([]byte, binary.BigEndian.Uint32(head))
		if _, err := io.ReadFull(in, payload); err != nil {
			fail("batch: reading a request of %d bytes: %v", len(payload), err)
		}
		cut := bytes.Index(payload, []byte("\n\n"))
		if cut < 0 {
			fail("batch: a request without the empty line after its header")
		}
		fields := map[string]string{}
		for _, line := range strings.Split(string(payload[:cut]), "\n") {
			if i := strings.IndexByte(line, '='); i > 0 {
				fields[line[:i]] = line[i+1:]
			}
		}
		seq, err := strconv.ParseUint(fields["seq"], 10, 32)
		if err != nil {
			fail("batch: a request without a valid seq (%q)", fields["seq"])
		}
		status, body := answer(encode, fields, payload[cut+2:])
		frame := make([]byte, 9)
		frame[0] = status
		binary.BigEndian.PutUint32(frame[1:], uint32(seq))
		binary.BigEndian.PutUint32(frame[5:], uint32(len(body)))
		out.Write(frame)
		out.Write(body)
		if err := out.Flush(); err != nil {
			fail("batch: writing an answer: %v", err)
		}
	}
}

func serveOne(encode encodeFunc) {
	text, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail("reading the value: %v", err)
	}
	fields := map[string]string{
		"id":       os.Getenv("SINKCHECK_VECTOR_ID"),
		"format":   os.Getenv("SINKCHECK_FORMAT"),
		"use_size": os.Getenv("SINKCHECK_USE_SIZE"),
		"use_type": os.Getenv("SINKCHECK_USE_TYPE"),
	}
	status, body := answer(encode, fields, text)
	if status == 0 {
		os.Stdout.Write(body)
		os.Exit(0)
	}
	fmt.Fprintln(os.Stderr, string(body))
	if status == 1 {
		os.Exit(exitRefused)
	}
	os.Exit(exitUnsupported)
}

// serve runs the protocol on stdin and stdout, in the mode SINKCHECK_MODE names. It reads the
// JSON notation only: the token notation would need a second parser, and reading it as JSON
// would misread values, so it stops instead.
func serve(encode encodeFunc) {
	if n := os.Getenv("SINKCHECK_NOTATION"); n != "json" {
		fail("this encoder reads the JSON notation: run it with sinkcheck conform --notation json (SINKCHECK_NOTATION is %q)", n)
	}
	// Encoders recurse once per level and values nest up to 100,000 deep.
	debug.SetMaxStack(1 << 30)
	if os.Getenv("SINKCHECK_MODE") == "batch" {
		serveBatch(encode)
		return
	}
	serveOne(encode)
}
