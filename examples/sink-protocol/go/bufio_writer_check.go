// bufio.Writer over a bytes.Buffer under the sinkcheck sink protocol (docs/sink-protocol.md).
//
//	dir=$(mktemp -d) && cp testkit/sink-protocol/go/sinkcheck_sink.go \
//	    examples/sink-protocol/go/bufio_writer_check.go "$dir"
//	go build -o bufio_writer_check "$dir"/*.go
//	sinkcheck check-sink -- ./bufio_writer_check [--plant drop-byte]
//
// The target is the bytes.Buffer; a `w` call is Write, a `b` call WriteByte on a
// bufio.NewWriter (4096 bytes). The position is what reached the target plus what the writer
// holds, target.Len() + w.Buffered(). Finishing is Flush; abandoning stops using the writer
// without Flush, as a Go program does when an error elsewhere ends its writing, so up to 4096
// written bytes never reach the target: buffers=4096 declares that. The capacity is none: the
// writer's buffer never grows, and the target's growth is bytes.Buffer's (bytes_buffer_check.go).
//
// --plant drop-byte: a block of 3 bytes or more is written without its last byte, and the
// position counts the dropped bytes as if they had been written.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
)

const bufferSize = 4096 // bufio's defaultBufSize

type bufioSink struct {
	target  bytes.Buffer
	w       *bufio.Writer
	plant   string
	dropped uint64 // bytes --plant drop-byte did not write
}

func newBufioSink(plant string) *bufioSink {
	s := &bufioSink{plant: plant}
	s.w = bufio.NewWriter(&s.target)
	return s
}

func (s *bufioSink) WriteByte(c byte) error { return s.w.WriteByte(c) }

func (s *bufioSink) Write(p []byte) error {
	if s.plant == "drop-byte" && len(p) >= 3 {
		p = p[:len(p)-1]
		s.dropped++
	}
	_, err := s.w.Write(p)
	return err
}

func (s *bufioSink) Position() uint64 {
	return uint64(s.target.Len()+s.w.Buffered()) + s.dropped
}

func (s *bufioSink) Finish() error    { return s.w.Flush() }
func (s *bufioSink) Abandon()         {}
func (s *bufioSink) Contents() []byte { return s.target.Bytes() }

func main() {
	plant := flag.String("plant", "", "plant a bug: drop-byte")
	flag.Parse()
	if *plant != "" && *plant != "drop-byte" {
		fmt.Fprintf(os.Stderr, "bufio_writer_check: unknown --plant %q (drop-byte)\n", *plant)
		os.Exit(2)
	}
	if w := bufio.NewWriter(nil); w.Size() != bufferSize {
		fmt.Fprintf(os.Stderr, "bufio_writer_check: bufio's default size is %d, not %d\n", w.Size(), bufferSize)
		os.Exit(2)
	}
	Serve(Greeting{Name: "bufio.Writer over bytes.Buffer (Go std)", Buffers: bufferSize},
		func() Sink { return newBufioSink(*plant) })
}
