"""Člověče, nezlob se in short topics for the 128x64 rules browser."""

from __future__ import annotations

from companion.rules_text import Topic

TOPICS: tuple[Topic, ...] = (
    ("Cíl hry",
     "Každý hráč má čtyři figurky. Vyhrává ten, kdo jako první dovede všechny čtyři "
     "z domečku kolem celého oběhu až do svých cílových polí."),
    ("Nasazení",
     "Z domečku se figurka dostane jen po šestce, a to na startovní pole své barvy. "
     "Když padne šestka a v domečku ještě čeká figurka, musíš ji nasadit, pokud start "
     "nezabírá tvoje vlastní figurka."),
    ("Uvolnit start",
     "Dokud v domečku čekají figurky, táhne přednostně figurka stojící na tvém startu, "
     "pokud jí to hod dovolí. Jinak by sis nasazování blokoval sám."),
    ("Šestka",
     "Po šestce házíš ještě jednou. Když šestkou nemůže táhnout žádná figurka, tah "
     "propadá a hází další hráč."),
    ("Tři pokusy",
     "Kdo nemá žádnou figurku ve hře, má na šestku tři pokusy. Figurky v domečku a "
     "figurky, které se v cíli už nemohou pohnout, se do hry nepočítají."),
    ("Vyhazování",
     "Když tvoje figurka skončí na poli se soupeřem, soupeř se vrací do domečku. Platí "
     "to i při nasazení na start a i na soupeřově vlastním startu. Na pole s vlastní "
     "figurkou vstoupit nesmíš."),
    ("Přeskakování",
     "Přeskakovat se smí vlastní i cizí figurky. Přeskočená figurka zůstává, kde je; "
     "rozhoduje jen pole, na kterém tah skončí."),
    ("Cesta do cíle",
     "Do cílových polí vede jen přesný hod. Figurka nesmí přejít za poslední pole cíle "
     "ani skončit na vlastní figurce. V cíli se smí popojíždět i přeskakovat."),
    ("Tah propadá",
     "Když hodem nemůže táhnout žádná figurka, tah propadá a kostka jde dalšímu hráči "
     "po směru hodinových ručiček."),
    ("Domácí varianty",
     "Povinné vyhazování: kdo může vyhodit, musí; nasazení a uvolnění startu mají "
     "přednost. Volné nasazování: po šestce se nasazovat nemusí. Cíl bez přeskoků: "
     "v cílových polích se přes figurku nejde. Start je bezpečný: figurku na jejím "
     "vlastním startu nelze vyhodit."),
    ("Ovládání",
     "◀ a ▶ vybírají, ● potvrzuje. Dlouhý stisk ● otevře nabídku. Jediný možný tah se "
     "provede sám po krátké pauze. Bez kostky se hod zadává tlačítky. Tahy se počítají "
     "od vlastního startu: start, 1. pole, 2. pole… a v cíli cíl 1 až cíl 4. Za počítač "
     "hází společník sám; jeho figurkou táhne někdo u stolu a potvrdí to tlačítkem ●."),
)
