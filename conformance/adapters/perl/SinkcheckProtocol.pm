# The encoder side of the sinkcheck conformance protocol for encoders written in Perl, the
# counterpart of ../python/sinkcheck_protocol.py (docs/conformance.md, "The protocol").
#
# An adapter hands serve() a function encode($value, $request) that returns the encoding as an
# octet string. It dies with SinkcheckProtocol::unsupported("why") to declare a value
# unsupported and with SinkcheckProtocol::refused("why") to refuse it; the library's own croak
# inside refusing() is its refusal. Anything else that dies is an error of the adapter: the
# process prints it and exits 70, and the runner grades the vector a crash.
#
# Values arrive in the JSON notation (--notation json; docs/cli.md, "Values JSON text cannot
# hold") and become Perl values that keep what Perl's own JSON modules lose:
#   integers     numbers with an integer slot (IV/UV), Math::BigInt beyond 64 bits
#   floats       numbers with only the double slot (NV), bits kept (NaN payloads, -0.0)
#   strings      character strings, utf8::upgrade'd (so a library sees text); a string whose
#                bytes are no sequence of code points (an invalid UTF-8 byte such as ff, an
#                overlong or truncated form) has no Perl text string and arrives as a
#                SinkcheckProtocol::RawString object holding the bytes, for the adapter to declare
#   binary       SinkcheckProtocol::Binary {data => octets, subtype => number or undef}
#   objects      SinkcheckProtocol::Object, an array of key, value, key, value in the vector's order
#   true, false  $SinkcheckProtocol::TRUE, $SinkcheckProtocol::FALSE; discarded: $DISCARDED
# A notation object the helper cannot read is a protocol error, never "unsupported": it dies
# (exit 70).
package SinkcheckProtocol;

use strict;
use warnings;
no warnings 'recursion';    # values nest 1,000 deep in the corpus
use Math::BigInt;

use constant { EXIT_REFUSED => 65, EXIT_UNSUPPORTED => 77, EXIT_SOFTWARE => 70 };

our $TRUE      = bless \(my $t = 1), 'SinkcheckProtocol::Bool';
our $FALSE     = bless \(my $f = 0), 'SinkcheckProtocol::Bool';
our $DISCARDED = bless \(my $d = 0), 'SinkcheckProtocol::Discarded';

sub unsupported { die bless {reason => $_[0]}, 'SinkcheckProtocol::Unsupported' }
sub refused     { die bless {reason => $_[0]}, 'SinkcheckProtocol::Refused' }

# Runs the library's encoder: what it dies with is its refusal.
sub refusing(&) {
    my ($code) = @_;
    my $out = eval { $code->() };
    if (!defined $out) {
        my $e = $@;
        die $e if ref $e;
        chomp $e;
        refused($e);
    }
    return $out;
}

sub notation_error { die "JSON notation at \"$_[0]\": $_[1]\n" }

my %ESCAPES = ('"' => '"', '\\' => '\\', '/' => '/', b => "\b", f => "\f", n => "\n", r => "\r", t => "\t");

sub json_string {
    my ($body) = @_;
    return $body if index($body, '\\') < 0;
    $body =~ s{\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\(["\\/bfnrt])}{
        defined $1 ? chr(0x10000 + ((hex($1) - 0xD800) << 10) + (hex($2) - 0xDC00))
      : defined $3 ? chr(hex $3)
      : $ESCAPES{$4}
    }ge;
    return $body;
}

# Reads one JSON text (already decoded to characters) without recursion into plain Perl data:
# objects as ['{', key, value, ...] lists so that their order survives, arrays as ['[', ...],
# numbers and strings as [type, text].
sub read_json {
    my ($text) = @_;
    my @stack;
    my $root;
    my $have_root = 0;
    pos($text) = 0;
    while (1) {
        $text =~ /\G[ \t\r\n]*/gc;
        my $value;
        if ($text =~ /\G([\[\{])/gc) {
            push @stack, [$1];
            next;
        } elsif ($text =~ /\G([\]\}])/gc) {
            die "JSON: unbalanced '$1'\n" unless @stack;
            $value = pop @stack;
        } elsif ($text =~ /\G[,:]/gc) {
            next;
        } elsif ($text =~ /\G"([^"\\]*(?:\\.[^"\\]*)*)"/gcs) {
            $value = ['s', json_string($1)];
        } elsif ($text =~ /\G(-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)/gc) {
            $value = [(defined $2 || defined $3) ? 'f' : 'i', $1];
        } elsif ($text =~ /\G(true|false|null)/gc) {
            $value = ['w', $1];
        } else {
            die sprintf("JSON: unexpected text at character %d\n", pos($text));
        }
        if (@stack) {
            push @{$stack[-1]}, $value;
        } else {
            $root = $value;
            $have_root = 1;
            $text =~ /\G[ \t\r\n]*/gc;
            die sprintf("JSON: text after the value at character %d\n", pos($text)) if pos($text) != length $text;
            return $root;
        }
    }
}

sub hex_bytes {
    my ($v, $at, $name) = @_;
    notation_error($at, "$name holds a string of an even number of hex digits")
        unless $v->[0] eq 's' && $v->[1] =~ /\A(?:[0-9a-fA-F]{2})*\z/;
    return pack('H*', $v->[1]);
}

sub integer {
    my ($digits) = @_;
    return 0 + $digits if length $digits < 19;    # within 64 bits whatever the digits
    my $n = Math::BigInt->new($digits);
    return $n if $n > Math::BigInt->new('18446744073709551615') || $n < Math::BigInt->new('-9223372036854775808');
    return 0 + $digits;    # IV or UV
}

sub decimal {
    my ($v, $at, $name) = @_;
    return $v->[1] if ($v->[0] eq 'i' || $v->[0] eq 's') && $v->[1] =~ /\A-?(?:0|[1-9][0-9]*)\z/;
    notation_error($at, "$name holds an integer, as a number or a string of decimal digits");
}

# A double with only its NV slot, so that no library takes it for an integer.
sub double_from_bits { return unpack('d>', pack('H*', $_[0])) }

# A decimal's double. Perl numifies "-0.0" to the integer 0, so the sign is set on the bits.
sub double {
    my ($s) = @_;
    my $negative = $s =~ s/\A-//;
    my $bits = pack('d>', 0 + $s);
    substr($bits, 0, 1) |= "\x80" if $negative;
    return unpack('d>', $bits);
}

# {"$float": ...}: "nan", "inf", "-inf", the binary64 bits as 16 hex digits (with or without
# "0x"), or a decimal.
sub float_value {
    my ($v, $at) = @_;
    notation_error($at, '$float holds a string') unless $v->[0] eq 's';
    my $s = $v->[1];
    return double_from_bits('7ff8000000000000') if $s eq 'nan';
    return double_from_bits('7ff0000000000000') if $s eq 'inf';
    return double_from_bits('fff0000000000000') if $s eq '-inf';
    return double_from_bits($1) if $s =~ /\A(?:0x)?([0-9a-fA-F]{16})\z/;
    return double($s) if $s =~ /\A-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\z/;
    notation_error($at, "\$float holds \"$s\", not a number");
}

# A text string from its UTF-8 bytes: characters when Perl can decode them (Perl's decoder takes
# surrogates and code points beyond U+10FFFF, as Perl strings hold them), else a RawString.
sub text_from_bytes {
    my ($bytes) = @_;
    my $s = $bytes;
    return bless {bytes => $bytes}, 'SinkcheckProtocol::RawString' unless utf8::decode($s);
    utf8::upgrade($s);
    return $s;
}

sub text {
    my ($s) = @_;
    utf8::upgrade($s);
    return $s;
}

sub key_value {
    my ($k, $at) = @_;
    return text($k->[1]) if $k->[0] eq 's';
    return text_from_bytes(hex_bytes($k->[2], $at, '$string')) if $k->[0] eq '{' && @$k == 3 && $k->[1][1] eq '$string';
    notation_error($at, 'a key is a string or {"$string": hex}');
}

sub from_notation {
    my ($v, $at) = @_;
    my $type = $v->[0];
    if ($type eq 'w') {
        return $v->[1] eq 'true' ? $TRUE : $v->[1] eq 'false' ? $FALSE : undef;
    }
    return integer($v->[1]) if $type eq 'i';
    return double($v->[1]) if $type eq 'f';
    return text($v->[1]) if $type eq 's';
    if ($type eq '[') {
        return [map { from_notation($v->[$_], "$at/" . ($_ - 1)) } 1 .. $#$v];
    }
    return object_from_notation($v, $at);
}

sub object_from_notation {
    my ($o, $at) = @_;
    my %members;
    for (my $i = 1; $i < @$o; $i += 2) {
        $members{$o->[$i][1]} = $o->[$i + 1];
    }
    my $shape = join ',', sort keys %members;
    my $pairs = (@$o - 1) / 2;
    return plain_object($o, $at) if $pairs != keys %members;    # a repeated key: no notation
    if ($shape eq '$binary') {
        return bless {data => hex_bytes($members{'$binary'}, $at, '$binary'), subtype => undef}, 'SinkcheckProtocol::Binary';
    } elsif ($shape eq '$binary,$subtype') {
        return bless {data => hex_bytes($members{'$binary'}, $at, '$binary'),
            subtype => integer(decimal($members{'$subtype'}, $at, '$subtype'))}, 'SinkcheckProtocol::Binary';
    } elsif ($shape eq '$float') {
        return float_value($members{'$float'}, $at);
    } elsif ($shape eq '$integer') {
        return integer(decimal($members{'$integer'}, $at, '$integer'));
    } elsif ($shape eq '$string') {
        return text_from_bytes(hex_bytes($members{'$string'}, $at, '$string'));
    } elsif ($shape eq '$discarded') {
        my $v = $members{'$discarded'};
        notation_error($at, '$discarded holds true') unless $v->[0] eq 'w' && $v->[1] eq 'true';
        return $DISCARDED;
    } elsif ($shape eq '$members') {
        my $list = $members{'$members'};
        notation_error($at, '$members holds an array of [key, value] pairs') unless $list->[0] eq '[';
        my @out;
        for my $i (1 .. $#$list) {
            my $pair = $list->[$i];
            my $here = "$at/\$members/" . ($i - 1);
            notation_error($here, 'a member is a [key, value] pair') unless $pair->[0] eq '[' && @$pair == 3;
            push @out, key_value($pair->[1], "$here/0"), from_notation($pair->[2], "$here/1");
        }
        return bless \@out, 'SinkcheckProtocol::Object';
    } elsif ($shape eq '$object') {
        my $inner = $members{'$object'};
        notation_error($at, '$object holds an object') unless $inner->[0] eq '{';
        return plain_object($inner, "$at/\$object");
    }
    return plain_object($o, $at);
}

sub plain_object {
    my ($o, $at) = @_;
    my @out;
    for (my $i = 1; $i < @$o; $i += 2) {
        push @out, text($o->[$i][1]), from_notation($o->[$i + 1], "$at/$o->[$i][1]");
    }
    return bless \@out, 'SinkcheckProtocol::Object';
}

sub parse_value {
    my ($octets) = @_;
    my $text = $octets;
    utf8::decode($text) or die "the value is not UTF-8 text\n";
    return from_notation(read_json($text), '');
}

# (status, payload): 0 encoded, 1 refused, 2 unsupported; dies otherwise.
sub answer {
    my ($encode, $fields, $text) = @_;
    my $value = parse_value($text);
    my $request = {format => $fields->{format} // '', use_size => ($fields->{use_size} // '') eq '1',
        use_type => ($fields->{use_type} // '') eq '1'};
    my $out = eval { $encode->($value, $request) };
    if (defined $out) {
        utf8::downgrade($out);    # dies if the adapter returned characters, not octets
        return (0, $out);
    }
    my $e = $@;
    my $reason = ref $e ? $e->{reason} : undef;
    my $bytes  = defined $reason ? $reason : '';
    utf8::encode($bytes);
    return (2, $bytes) if ref $e eq 'SinkcheckProtocol::Unsupported';
    return (1, $bytes) if ref $e eq 'SinkcheckProtocol::Refused';
    die $e;
}

sub read_exactly {
    my ($n) = @_;
    my $buf = '';
    while (length $buf < $n) {
        my $got = read(STDIN, $buf, $n - length $buf, length $buf);
        die "batch: reading stdin: $!\n" unless defined $got;
        last if $got == 0;
    }
    return $buf;
}

sub serve_batch {
    my ($encode) = @_;
    while (1) {
        my $head = read_exactly(4);
        return 0 if length $head < 4;
        my $payload = read_exactly(unpack 'N', $head);
        my ($header, $text) = split /\n\n/, $payload, 2;
        die "batch: a request without the empty line after its header\n" unless defined $text;
        my %fields = map { split /=/, $_, 2 } grep {/=/} split /\n/, $header;
        die "batch: a request without a valid seq\n" unless ($fields{seq} // '') =~ /\A[0-9]+\z/;
        my ($status, $body) = answer($encode, \%fields, $text);
        print STDOUT pack('CNN', $status, $fields{seq}, length $body), $body;
        STDOUT->flush;
    }
}

sub serve_one {
    my ($encode) = @_;
    local $/;
    my $text = <STDIN> // '';
    my %fields = (format => $ENV{SINKCHECK_FORMAT}, use_size => $ENV{SINKCHECK_USE_SIZE},
        use_type => $ENV{SINKCHECK_USE_TYPE});
    my ($status, $body) = answer($encode, \%fields, $text);
    if ($status == 0) {
        print STDOUT $body;
        return 0;
    }
    print STDERR "$body\n";
    return $status == 1 ? EXIT_REFUSED : EXIT_UNSUPPORTED;
}

# Runs the protocol on stdin and stdout; returns the exit status. It reads the JSON notation
# only (reading the token notation as JSON would misread values), so it stops otherwise.
sub serve {
    my ($encode) = @_;
    binmode STDIN;
    binmode STDOUT;
    my $notation = $ENV{SINKCHECK_NOTATION} // '';
    if ($notation ne 'json') {
        print STDERR "this encoder reads the JSON notation: run it with sinkcheck conform --notation json "
            . "(SINKCHECK_NOTATION is '$notation')\n";
        return EXIT_SOFTWARE;
    }
    my $status = eval { ($ENV{SINKCHECK_MODE} // '') eq 'batch' ? serve_batch($encode) : serve_one($encode) };
    return $status if defined $status;
    print STDERR ref $@ ? "adapter error: $@->{reason}\n" : "adapter error: $@";
    return EXIT_SOFTWARE;
}

1;
