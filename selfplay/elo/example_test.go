package elo_test

import (
	"fmt"

	"tamerlane/selfplay/elo"
)

func ExampleSPRT() {
	// A fastchess-style test: normalized Elo bounds [0, 2], pentanomial
	// statistics of 43360 game pairs.
	s := elo.SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05, Model: elo.ModelNormalized}
	if err := s.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	p := elo.Pentanomial{379, 10170, 21828, 10640, 343}

	e := p.Elo()
	n := p.NormalizedElo()
	llr := s.LLRPentanomial(p)
	lower, upper := s.Bounds()
	fmt.Printf("Elo: %.2f +/- %.2f, nElo: %.2f +/- %.2f\n", e.Elo, e.Margin, n.Elo, n.Margin)
	fmt.Printf("LOS: %.2f %%\n", 100*e.LOS)
	fmt.Printf("LLR: %.2f (%.2f, %.2f) [%.2f, %.2f]\n", llr, lower, upper, s.Elo0, s.Elo1)
	fmt.Println("decision:", s.Decide(llr))

	// Output:
	// Elo: 1.59 +/- 1.21, nElo: 3.05 +/- 2.31
	// LOS: 99.51 %
	// LLR: 2.95 (-2.94, 2.94) [0.00, 2.00]
	// decision: H1
}

func ExampleNewPentanomial() {
	// Each pair holds the first player's results with both colours.
	pairs := []elo.Pair{
		{elo.Win, elo.Draw},
		{elo.Draw, elo.Draw},
		{elo.Loss, elo.Win},
		{elo.Win, elo.Win},
	}
	fmt.Println(elo.NewPentanomial(pairs))

	var games []elo.Outcome
	for _, p := range pairs {
		games = append(games, p[0], p[1])
	}
	fmt.Printf("%+v\n", elo.NewTrinomial(games))

	// Output:
	// [0 0 2 1 1]
	// {Wins:4 Draws:3 Losses:1}
}

func ExampleTrinomial_Elo() {
	t := elo.Trinomial{Wins: 2070, Draws: 1062, Losses: 1872}
	e := t.Elo()
	fmt.Printf("Elo difference: %.1f +/- %.1f, LOS: %.1f %%, DrawRatio: %.1f %%\n",
		e.Elo, e.Margin, 100*e.LOS, 100*t.DrawRatio())

	s := elo.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: elo.ModelBayesian}
	llr := s.LLRTrinomial(t)
	lower, upper := s.Bounds()
	fmt.Printf("SPRT: llr %.3g, lbound %.3g, ubound %.3g - %v\n", llr, lower, upper, s.Decide(llr))

	// Output:
	// Elo difference: 13.8 +/- 8.5, LOS: 99.9 %, DrawRatio: 21.2 %
	// SPRT: llr 2.96, lbound -2.94, ubound 2.94 - H1
}
