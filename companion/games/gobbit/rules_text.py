"""Gobbit in short topics for the 128x64 rules browser."""

from __future__ import annotations

from companion.rules_text import Topic

TOPICS: tuple[Topic, ...] = (
    ("Cíl hry",
     "Chraň svoje karty a útoč na soupeře. Vyhrává poslední hráč, kterému karty zůstanou."),
    ("Potravní řetězec",
     "Bojují jen zvířata stejné barvy. Had sežere chameleona, chameleon sežere komára. "
     "Had komáry nechává být a komár neútočí na nikoho."),
    ("Útok a obrana",
     "Útočíš plácnutím na soupeřovo zvíře, které tvoje vrchní karta smí sežrat. Bráníš "
     "se plácnutím na vlastní kupičku. Kdo je první, bere kupičku, které se dotkl, pod "
     "svůj balíček."),
    ("Fauly",
     "Faul je útok na zvíře, které sežrat nesmíš, obrana, když tě nic neohrožuje, dotyk "
     "hřbitova bez důvodu a otočení karty mimo pořadí. Kdo fauluje, posílá své zahrané "
     "karty na hřbitov."),
    ("Hřbitov",
     "Na hřbitov putují karty z faulů. Ze hřbitova si nikdo nikdy nic nebere."),
    ("Gobbit!",
     "Když už hřbitov existuje a na stole jsou vidět komáři všech tří barev, platí jen "
     "závod: kdo první plácne na hřbitov, vyhrává. Všichni si vezmou své kupičky pod "
     "balíček a vítěz začíná. Fauly teď neplatí a duch nezávodí."),
    ("Duch",
     "Hráč bez jediné karty se stává duchem. Duch smí útočit na dvojice stejných karet; "
     "kdo se mu neubrání, posílá kupičku na hřbitov."),
    ("Gorila",
     "Kdo otočí gorilu, smí hned zaútočit na kupičky všech hráčů bez ohledu na barvu "
     "i zvíře. Co gorila získá, jde na hřbitov, a hráč pokračuje další kartou."),
    ("Varianta Expert",
     "Obrázek na rubu vrchní karty hřbitova přidává podmínku, dokud je vidět: komáři "
     "vybuchují, barva neplatí, řetězec je obrácený, hadi jedí komáry, bojují jen různé "
     "barvy, nebo všichni útočí jako duchové."),
    ("Konec hry",
     "Když už otáčí jen jeden hráč, hraje dál, dokud mu karty nedojdou; jakmile se ale "
     "jednou ubrání, hra končí. Vyhrává ten s nejvíce kartami, remíza je možná."),
    ("Rozhodčí",
     "Podložky měří každý dotyk na milisekundy. Spor ukáže pořadí dotyků, rozdíly časů "
     "a verdikt podle vrchních karet, které zadáš tlačítky."),
)
