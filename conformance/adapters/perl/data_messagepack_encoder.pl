#!/usr/bin/perl
# Data::MessagePack (Debian libdata-messagepack-perl 1.02) as a sinkcheck conformance encoder,
# MessagePack only:
#
#   sinkcheck conform --format msgpack --mode batch --notation json --encoder 'perl data_messagepack_encoder.pl'
#
# Writes Data::MessagePack->new->utf8->canonical->pack($value). utf8 makes strings str (without
# it every string is bin); canonical sorts a hash's keys, which makes a run reproducible (a Perl
# hash iterates in random order). Values are what a Perl program holds: numbers with an integer
# slot or only a double slot, upgraded character strings, Data::MessagePack::true/false, hashes.
# The library has no way to write one string as bin and another as str, and no ext type, so
# binary (with or without a subtype) is declared unsupported; so are a string whose bytes are
# no sequence of code points (no Perl text string holds it) and the discarded value (Perl has
# none). An integer beyond 64 bits is a Math::BigInt, for the library to take or reject. What
# Data::MessagePack croaks with is its refusal.
use strict;
use warnings;
no warnings 'recursion';
use FindBin;
use lib $FindBin::Bin;
use Data::MessagePack;
use SinkcheckProtocol;

sub to_messagepack {
    my ($v) = @_;
    my $type = ref $v;
    return $v if $type eq '' || $type eq 'Math::BigInt';
    return $$v ? Data::MessagePack::true() : Data::MessagePack::false() if $type eq 'SinkcheckProtocol::Bool';
    return [map { to_messagepack($_) } @$v] if $type eq 'ARRAY';
    if ($type eq 'SinkcheckProtocol::Object') {
        my %h;
        for (my $i = 0; $i < @$v; $i += 2) {
            my $k = $v->[$i];
            SinkcheckProtocol::unsupported('a key that is no sequence of code points has no Perl string') if ref $k;
            $h{$k} = to_messagepack($v->[$i + 1]);
        }
        return \%h;
    }
    SinkcheckProtocol::unsupported('Data::MessagePack 1.02 writes every string as str (utf8) or every one as bin: '
            . 'no binary next to text, no ext type')
        if $type eq 'SinkcheckProtocol::Binary';
    SinkcheckProtocol::unsupported('text that is no sequence of code points has no Perl string')
        if $type eq 'SinkcheckProtocol::RawString';
    SinkcheckProtocol::unsupported('Perl has no discarded value') if $type eq 'SinkcheckProtocol::Discarded';
    die "data_messagepack_encoder: no conversion for $type\n";
}

my $mp = Data::MessagePack->new->utf8->canonical;
exit SinkcheckProtocol::serve(sub {
    my ($value, $request) = @_;
    SinkcheckProtocol::unsupported('Data::MessagePack writes MessagePack only') unless $request->{format} eq 'msgpack';
    my $converted = to_messagepack($value);
    return SinkcheckProtocol::refusing { $mp->pack($converted) };
});
