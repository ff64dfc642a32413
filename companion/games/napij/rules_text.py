"""Člověče, napij se! in short topics for the 128x64 rules browser.

The facts are those of the printed rules (seed ``000_…``) as the engine plays
them (docs/players/napij-rules.md); every sentence is written anew for this product.
"""

from __future__ import annotations

from companion.rules_text import Topic

TOPICS: tuple[Topic, ...] = (
    ("Cíl hry",
     "Každý hráč vede čtyři figurky z hospody přes celý plán až do svého domku. Kdo má "
     "v domku jako první všechny čtyři, vyhrává a ostatní mu připijí."),
    ("Začátek",
     "Hru zahájí přípitek: napijí se všichni. Začíná ten, kdo pravidlům rozuměl nejméně, "
     "nebo rozhodne los: krabička hodí za každého, nejvyšší hod začíná a při shodě se "
     "hází znovu."),
    ("Hospoda a šestka",
     "Z hospody se figurka dostane jen po šestce, a to na stanoviště své barvy. Po šestce se "
     "hází znovu. Kdo nemá žádnou figurku ve hře a nemůže postoupit ani v domku, má na šestku "
     "tři pokusy. Figurka v hospodě, v domku nebo v pasti ve hře není."),
    ("Dělení hodu",
     "Hody jednoho tahu se sčítají. Buď dostane každá figurka jedno hozené číslo, nebo jedna "
     "figurka vezme celý součet. Po šestce a trojce tedy táhneš 6 a 3, nebo 9, nikdy 5 a 4. "
     "Použít se musí všechna čísla, jinak tah propadá."),
    ("Součet figurkou",
     "Figurka, která bere součet, všechno po cestě přejde: nevyhazuje, nezahýbá na rozcestí "
     "a nebere karty. Počítá se jen pole, kde skončí."),
    ("Vyhazování",
     "Skončí-li figurka na poli se soupeřem, soupeř jde zpět do hospody a napije se. Na pole "
     "s vlastní figurkou ani na soupeře chráněného imunitou vstoupit nesmíš."),
    ("Domek a váleček",
     "Do cesty k domku zahne figurka na poli se šipkou před svým stanovištěm. Těsně před "
     "domkem je váleček: kdo na něm zastaví, utíká zpět do hospody a napije se. Do domku "
     "se musí trefit přesně a v domku se nepřeskakuje. Když tvoje figurka vejde do domku, "
     "ostatní ti připijí."),
    ("Rozcestí, zkratky",
     "Na zkratku vede jen rozcestí. Figurka na něm musí zastavit a cestu si vybere až "
     "při příštím tahu. Kdo rozcestí jen přejde, pokračuje rovně."),
    ("Černá stezka",
     "Stezka napříč plánem zkrátí půl cesty a jezdí se po ní oběma směry. Kdo zastaví na "
     "odbočce, musí příště tam, kam ukazuje šipka: do záchytky, do bažiny nebo do lesa."),
    ("Pasti",
     "Záchytka, bažina a les jsou pasti. Do pasti se musí dojít přesným hodem; větší hod figurka nevyužije a čeká. V pasti "
     "figurka není ve hře a vysvobodí ji jen šestka. Pak se vrací na stezku směrem, kterým "
     "na ni přišla. Z bažiny a lesa vede zpět rozcestí, které posílá figurku zase do "
     "bažiny nebo do lesa."),
    ("Karty",
     "Kdo zastaví na poli s kartou, vezme si vrchní kartu a udělá, co říká. Krabička buď "
     "karty zamíchá a ukáže sama, nebo hrajete s papírovými a číslo tažené karty zadáte "
     "tlačítky. Karty pohybují jen figurkami na hlavní cestě. Když tě karta jiného hráče "
     "postaví na pole s kartou, bereš si kartu mimo pořadí."),
    ("Nabídnutá karta",
     "Některé karty ti dovolí nabídnout spoluhráči, že tě smí vyhodit nebo si s tebou "
     "vyměnit místo. Vybereš komu; on buď přijme s některou svou figurkou z hlavní cesty, "
     "nebo odmítne."),
    ("Imunita",
     "Chráněnou figurku čtyři kola nikdo nevyhodí a žádná karta ji nepošle do hospody. "
     "Před válečkem, výměnou ani záchytkou ji ale imunita neochrání."),
    ("Láhev",
     "Láhev postaví krabička za první nasazenou figurku. Kdo má figurku ve hře, smí před "
     "hodem ohlásit, že tento tah hraje lahví: na obrazovce hodu ▶ a pak ● ano. Láhev vezme "
     "součet hodů po hlavní cestě a vyhodí každého, na koho dopadne. Kdo svou figurkou "
     "zastaví na lahvi, odsune ji o pole za sebe a napije se."),
    ("Kdy se pije",
     "Pije ten, komu vyhodili figurku, kdo se střetl s lahví, komu se figurka vrátila do "
     "hospody, komu to uloží karta, kdo shodí kostku, zbytečně zdržuje, švindluje nebo se "
     "rozčiluje. Když někdo dovede figurku do domku, připijí mu ostatní. Krabička každou "
     "povinnost oznámí na displeji, pípnutím i hlasem a počká: ● znamená vypito za "
     "všechny, koho jmenuje, ◀ později."),
    ("Dluhy",
     "Napít se nemusíš hned, ale nejpozději předtím, než zase hodíš. Co necháš na později, "
     "je dluh: krabička se na něj před tvým hodem zeptá i s tím, za co ho dlužíš; vypij a "
     "stiskni ●. Kdo hodí dřív, má hod neplatný a napije se ještě dvakrát: za švindlování "
     "a za zdržování."),
    ("Stolní povinnosti",
     "Spadlou kostku pozná krabička sama. Zdržování, švindlování a rozčilování vyhlásíte "
     "v nabídce položkou Povinnost napít se. Zapnutý čas na tah sám vyhlásí zdržování, "
     "když hráč na tahu přemýšlí déle."),
    ("Ovládání",
     "◀ a ▶ vybírají tah, ● potvrzuje, až figurku posuneš na plánu, i když je tah jediný. "
     "Tah počítače ukáže krabička jako tah 1; posuneš za něj figurku a stiskneš ●. Pás "
     "nahoře ukazuje pole "
     "na cestě figurky a cíl bliká. Dlouhý stisk ● otevře nabídku: vrácení akce, dluhy, "
     "povinnosti, účet a pravidla."),
)
