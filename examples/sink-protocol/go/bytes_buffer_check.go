// bytes.Buffer under the sinkcheck sink protocol (docs/sink-protocol.md), Go 1.19.
//
//	dir=$(mktemp -d) && cp testkit/sink-protocol/go/sinkcheck_sink.go \
//	    examples/sink-protocol/go/bytes_buffer_check.go "$dir"
//	go build -o bytes_buffer_check "$dir"/*.go
//	sinkcheck check-sink -- ./bytes_buffer_check [--plant drop-byte|rule]
//
// A `w` call is Write, a `b` call WriteByte; the position is Len() and the capacity Cap(). There
// is nothing to finish or abandon. The growth rule is Go 1.19's (bytes/buffer.go, grow and
// growSlice): a new Buffer's first write of up to 64 bytes allocates 64; any other write that
// does not fit grows the slice to max(needed, 2 * capacity), which growSlice allocates through
// append, so the runtime rounds it up to a malloc size class (runtime/sizeclasses.go), or above
// 32 KiB to whole 8 KiB pages (runtime/msize.go, roundupsize).
//
// --plant drop-byte: a block of 3 bytes or more is written without its last byte, and the
// position counts the dropped bytes as if they had been written.
// --plant rule: the greeting forgets the 64 bytes of a new Buffer's first small write.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// sizeClasses are Go 1.19's malloc size classes above 64 bytes, up to the largest small object.
// The rule never rounds a smaller size: it starts at 64, or at a first write of more than 64.
var sizeClasses = []int{
	80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416, 448, 480,
	512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048, 2304, 2688, 3072,
	3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880, 12288,
	13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768,
}

// roundedUp writes the runtime's roundupsize of x (above 64) as an expression: the protocol's
// expressions have no table lookup, so a chain of comparisons.
func roundedUp(x string) string {
	var b strings.Builder
	for _, c := range sizeClasses {
		fmt.Fprintf(&b, "%s <= %d ? %d : ", x, c, c)
	}
	fmt.Fprintf(&b, "(%s + 8191) / 8192 * 8192", x)
	return b.String()
}

type bufferSink struct {
	b       bytes.Buffer
	plant   string
	dropped uint64 // bytes --plant drop-byte did not write
}

func (s *bufferSink) WriteByte(c byte) error { return s.b.WriteByte(c) }

func (s *bufferSink) Write(p []byte) error {
	if s.plant == "drop-byte" && len(p) >= 3 {
		p = p[:len(p)-1]
		s.dropped++
	}
	_, err := s.b.Write(p)
	return err
}

func (s *bufferSink) Position() uint64 { return uint64(s.b.Len()) + s.dropped }
func (s *bufferSink) Capacity() uint64 { return uint64(s.b.Cap()) }
func (s *bufferSink) Finish() error    { return nil }
func (s *bufferSink) Abandon()         {}
func (s *bufferSink) Contents() []byte { return s.b.Bytes() }

func main() {
	plant := flag.String("plant", "", "plant a bug: drop-byte or rule")
	flag.Parse()
	if *plant != "" && *plant != "drop-byte" && *plant != "rule" {
		fmt.Fprintf(os.Stderr, "bytes_buffer_check: unknown --plant %q (drop-byte, rule)\n", *plant)
		os.Exit(2)
	}
	growth := roundedUp("max(needed, 2 * capacity)")
	if *plant != "rule" {
		growth = "capacity == 0 && length <= 64 ? 64 : " + growth
	}
	Serve(Greeting{
		Name:     "bytes.Buffer (" + runtime.Version() + ")",
		Capacity: true,
		Growth:   growth,
	}, func() Sink { return &bufferSink{plant: *plant} })
}
