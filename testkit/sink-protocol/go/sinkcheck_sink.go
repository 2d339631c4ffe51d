// The process side of the sinkcheck sink protocol, for sinks written in Go (docs/sink-protocol.md).
//
// A check is a Sink adapter over the sink and a main that calls Serve, in package main, built
// together with this file (no module needed; Go 1.19, standard library only). go build takes
// named files from one folder only, so copy this file next to the check:
//
//	cp /path/to/sinkcheck_sink.go my_check.go BUILD_DIR/
//	go build -o my_check BUILD_DIR/sinkcheck_sink.go BUILD_DIR/my_check.go
//	sinkcheck check-sink -- ./my_check
//
// Serve(greeting, makeSink) writes the greeting, then plays every program of its standard input
// on a new Sink from makeSink() and exits 0 at the end of the input. A sink that seeks
// (Seeks: true) also implements Seeker; one that reports its capacity (Capacity: true) also
// implements CapacityReporter. An error returned by a call, or a panic in it, fails the call: its
// text becomes the answer's error text, the sink is abandoned and the program's remaining calls
// are read but not played. An error from Finish is the answer's error text too. Malformed input
// (an unknown op, a seek to a sink that declared no seeks, a program cut short) ends the process
// with status 2 and the byte offset on standard error; so does a Sink that lacks an interface
// the greeting needs.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strings"
)

// Greeting is what the process declares (docs/sink-protocol.md, "The conversation").
type Greeting struct {
	Name      string
	Seeks     bool   // the sink implements Seeker
	Capacity  bool   // capacity=reported: the sink implements CapacityReporter
	Growth    string // empty: none declared
	GrowsWhen string // empty: the protocol's default, needed > capacity
	Initial   uint64
	Buffers   uint64
}

// Sink is one sink over a new, empty target, for one program.
type Sink interface {
	WriteByte(c byte) error // a `b` call
	Write(p []byte) error   // a `w` call; p is not the sink's to keep
	Position() uint64       // the cursor after each call
	Finish() error          // the program ended with `F`: flush, close
	Abandon()               // it ended with `A`, or a call failed: stop using the sink
	Contents() []byte       // what the target holds after Finish or Abandon
}

// Seeker is a Sink that takes `s` calls (Seeks: true).
type Seeker interface {
	SeekTo(offset uint64) error
}

// CapacityReporter is a Sink that reports its target's capacity (Capacity: true).
type CapacityReporter interface {
	Capacity() uint64
}

const noCapacity = ^uint64(0)

// malformed is input (or a check) that breaks the protocol: status 2.
type malformed struct{ message string }

func (m *malformed) Error() string { return m.message }

func fail(format string, args ...interface{}) {
	panic(&malformed{fmt.Sprintf(format, args...)})
}

// Serve speaks the protocol on stdin and stdout until the end of the input; it never returns.
func Serve(g Greeting, makeSink func() Sink) {
	defer func() {
		r := recover()
		if m, ok := r.(*malformed); ok {
			fmt.Fprintf(os.Stderr, "sinkcheck_sink: %s\n", m.message)
			os.Exit(2)
		} else if r != nil {
			panic(r)
		}
	}()
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	out.WriteString(greetingText(g))
	flush(out)
	in := &input{r: bufio.NewReaderSize(os.Stdin, 1<<16)}
	for {
		answer, more := play(in, g, makeSink)
		if !more {
			os.Exit(0)
		}
		out.Write(answer)
		flush(out)
	}
}

func flush(out *bufio.Writer) {
	if err := out.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "sinkcheck_sink: writing the answer: %v\n", err)
		os.Exit(2)
	}
}

func greetingText(g Greeting) string {
	if g.Name == "" {
		fail("greeting: a Name is required")
	}
	if g.Growth != "" && !g.Capacity {
		fail("greeting: Growth needs Capacity (capacity=reported)")
	}
	seeks, capacity := "0", "none"
	if g.Seeks {
		seeks = "1"
	}
	if g.Capacity {
		capacity = "reported"
	}
	lines := []string{"name=" + g.Name, "seeks=" + seeks, "capacity=" + capacity}
	if g.Growth != "" {
		lines = append(lines, "growth="+g.Growth)
	}
	if g.GrowsWhen != "" {
		lines = append(lines, "grows_when="+g.GrowsWhen)
	}
	lines = append(lines, fmt.Sprintf("initial=%d", g.Initial), fmt.Sprintf("buffers=%d", g.Buffers))
	for _, line := range lines {
		if strings.ContainsAny(line, "\r\n") {
			fail("greeting: a line break in %q", line)
		}
	}
	return "sinkcheck-sink 1\n" + strings.Join(lines, "\n") + "\n\n"
}

// input reads stdin and counts the bytes it has read, for the error messages. A bufio.Reader
// reads what has arrived and never waits for more than a call needs, which matters: sinkcheck
// may wait for an answer before it sends more.
type input struct {
	r      *bufio.Reader
	offset uint64
	block  bytes.Buffer // reused for `w` calls
}

// op returns the next byte, or false at the end of the input.
func (in *input) op() (byte, bool) {
	c, err := in.r.ReadByte()
	if err == io.EOF {
		return 0, false
	} else if err != nil {
		fail("reading the input at byte %d: %v", in.offset, err)
	}
	in.offset++
	return c, true
}

// exactly reads n bytes of the call at byte at; the end of the input before them is malformed.
// The buffer grows with what arrives, not with what a length claims.
func (in *input) exactly(n uint64, op byte, at uint64) []byte {
	in.block.Reset()
	got, err := io.CopyN(&in.block, in.r, int64(n))
	in.offset += uint64(got)
	if err == io.EOF {
		fail("truncated input at byte %d: the '%c' call at byte %d is %d byte(s) short",
			in.offset, op, at, n-uint64(got))
	} else if err != nil {
		fail("reading the input at byte %d: %v", in.offset, err)
	}
	return in.block.Bytes()
}

// program is one program played on one new sink: what the answer reports.
type program struct {
	sink     Sink
	capacity CapacityReporter // nil without capacity=reported
	track    []byte           // position, capacity after each call that returned
	done     uint32
	err      string // the error text once a call failed
	failed   bool
}

func newProgram(g Greeting, s Sink) *program {
	p := &program{sink: s}
	if g.Capacity {
		c, ok := s.(CapacityReporter)
		if !ok {
			fail("the greeting declares Capacity, but %T is no CapacityReporter", s)
		}
		p.capacity = c
	}
	if _, ok := s.(Seeker); g.Seeks && !ok {
		fail("the greeting declares Seeks, but %T is no Seeker", s)
	}
	return p
}

// call plays one call unless one before it failed; a panic in Position or Capacity fails it too.
func (p *program) call(do func() error) {
	if p.failed {
		return
	}
	position, capacity := uint64(0), noCapacity
	err := guarded(func() error {
		if err := do(); err != nil {
			return err
		}
		position = p.sink.Position()
		if p.capacity != nil {
			capacity = p.capacity.Capacity()
		}
		return nil
	})
	if err != nil {
		p.failed, p.err = true, errorText(err)
		p.abandon() // the call's error is the one the answer gives
		return
	}
	p.track = binary.LittleEndian.AppendUint64(p.track, position)
	p.track = binary.LittleEndian.AppendUint64(p.track, capacity)
	p.done++
}

func (p *program) abandon() error {
	return guarded(func() error { p.sink.Abandon(); return nil })
}

func (p *program) end(finishing bool) {
	if p.failed {
		return
	}
	var err error
	if finishing {
		err = guarded(p.sink.Finish)
	} else {
		err = p.abandon()
	}
	if err != nil {
		p.err = errorText(err)
	}
}

func (p *program) answer() []byte {
	contents := p.sink.Contents()
	a := make([]byte, 0, 1+4+len(p.track)+4+len(p.err)+8+len(contents))
	a = append(a, 'r')
	a = binary.LittleEndian.AppendUint32(a, p.done)
	a = append(a, p.track...)
	a = binary.LittleEndian.AppendUint32(a, uint32(len(p.err)))
	a = append(a, p.err...)
	a = binary.LittleEndian.AppendUint64(a, uint64(len(contents)))
	return append(a, contents...)
}

// guarded runs a call of the sink; a panic in it (bytes.Buffer's ErrTooLarge, say) is its error.
func guarded(do func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = fmt.Errorf("panic: %w", e)
			} else {
				err = fmt.Errorf("panic: %v", r)
			}
		}
	}()
	return do()
}

// errorText is never empty: an empty error text means "no error" in the answer.
func errorText(err error) string {
	if text := err.Error(); text != "" {
		return text
	}
	return fmt.Sprintf("%T with no text", err)
}

// play plays the next program; false at the end of the input.
func play(in *input, g Greeting, makeSink func() Sink) ([]byte, bool) {
	var p *program
	for {
		at := in.offset
		op, ok := in.op()
		if !ok {
			if p == nil {
				return nil, false
			}
			fail("truncated input at byte %d: the program has no end (F or A)", at)
		}
		if p == nil {
			p = newProgram(g, makeSink())
		}
		switch {
		case op == 'b':
			c := in.exactly(1, op, at)[0]
			p.call(func() error { return p.sink.WriteByte(c) })
		case op == 'w':
			n := binary.LittleEndian.Uint32(in.exactly(4, op, at))
			block := in.exactly(uint64(n), op, at)
			p.call(func() error { return p.sink.Write(block) })
		case op == 's' && g.Seeks:
			offset := binary.LittleEndian.Uint64(in.exactly(8, op, at))
			p.call(func() error { return p.sink.(Seeker).SeekTo(offset) })
		case op == 'F' || op == 'A':
			p.end(op == 'F')
			return p.answer(), true
		case op == 's':
			fail("malformed input at byte %d: a seek to a sink that declared seeks=0", at)
		default:
			fail("malformed input at byte %d: unknown op 0x%02x", at, op)
		}
	}
}
