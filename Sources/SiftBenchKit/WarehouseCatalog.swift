/// The names the generated warehouse records draw from: customers, stock items, carriers and
/// destinations, with the quirks of real master data (commas, quotes, non-ASCII names, near
/// duplicates like `Acme` / `Acme Corp`).
enum WarehouseCatalog {
  /// A customer (or supplier) account.
  struct Customer {
    let name: String
    /// ISO 3166 country code.
    let country: String
    /// Relative frequency; the weights add up to 200, so `Acme` (10) is on 5% of records.
    let weight: Int
  }

  /// A stock item with its list price.
  struct Item {
    let name: String
    let priceCents: Int
    /// Relative frequency.
    let weight: Int
  }

  static let customers: [Customer] = [
    Customer(name: "Acme", country: "GB", weight: 10),
    Customer(name: "Acme Corp", country: "US", weight: 8),
    Customer(name: "Acme Logistics", country: "GB", weight: 6),
    Customer(name: "Smith, Jones & Co", country: "GB", weight: 6),
    Customer(name: "The \"Best\" Supplies", country: "GB", weight: 5),
    Customer(name: "Müller GmbH", country: "DE", weight: 7),
    Customer(name: "Nordisk Kjøl AS", country: "NO", weight: 5),
    Customer(name: "東京商事", country: "JP", weight: 4),
    Customer(name: "Brightwell Retail", country: "GB", weight: 9),
    Customer(name: "Castle Hardware", country: "GB", weight: 8),
    Customer(name: "Delta Freight", country: "GB", weight: 5),
    Customer(name: "Evergreen Garden Centres", country: "GB", weight: 5),
    Customer(name: "Fenwick & Daughters", country: "GB", weight: 4),
    Customer(name: "Granite Building Supplies", country: "GB", weight: 8),
    Customer(name: "Harbour Marine", country: "IE", weight: 4),
    Customer(name: "Île-de-France Distribution", country: "FR", weight: 4),
    Customer(name: "Jansen B.V.", country: "NL", weight: 5),
    Customer(name: "Kowalski Sp. z o.o.", country: "PL", weight: 4),
    Customer(name: "Lindqvist AB", country: "SE", weight: 4),
    Customer(name: "Marlow Engineering", country: "GB", weight: 8),
    Customer(name: "Northgate Foods", country: "GB", weight: 7),
    Customer(name: "O'Brien Plant Hire", country: "IE", weight: 4),
    Customer(name: "Pennine Packaging", country: "GB", weight: 5),
    Customer(name: "Quayside Wholesale", country: "GB", weight: 5),
    Customer(name: "Redfern Motors", country: "GB", weight: 4),
    Customer(name: "Severn Valley Farms", country: "GB", weight: 4),
    Customer(name: "Thames Office Supplies", country: "GB", weight: 5),
    Customer(name: "Union Electrical", country: "GB", weight: 5),
    Customer(name: "Vega Components", country: "ES", weight: 4),
    Customer(name: "Westbrook Builders Merchants", country: "GB", weight: 5),
    Customer(name: "Xanadu Events", country: "GB", weight: 3),
    Customer(name: "Yorkshire Tool Hire", country: "GB", weight: 5),
    Customer(name: "Zenith Pharma", country: "CH", weight: 4),
    Customer(name: "Álvarez e Hijos S.L.", country: "ES", weight: 3),
    Customer(name: "Bäckerei Schmidt", country: "DE", weight: 3),
    Customer(name: "Coastal Cold Store", country: "GB", weight: 4),
    Customer(name: "Dunmore, Hale and Partners", country: "GB", weight: 3),
    Customer(name: "Elm Street Pharmacy", country: "US", weight: 3),
    Customer(name: "Fjord Seafood ASA", country: "NO", weight: 3),
    Customer(name: "Great Western Hotels", country: "GB", weight: 2),
  ]

  static let items: [Item] = [
    Item(name: "Bolt M8x40", priceCents: 35, weight: 8),
    Item(name: "Bolt M10x60", priceCents: 52, weight: 6),
    Item(name: "Bolt M12x80", priceCents: 88, weight: 4),
    Item(name: "Hex Nut M8", priceCents: 9, weight: 8),
    Item(name: "Hex Nut M10", priceCents: 12, weight: 6),
    Item(name: "Washer M8", priceCents: 4, weight: 6),
    Item(name: "Wood screw 4x40", priceCents: 6, weight: 6),
    Item(name: "Wall plug 6mm", priceCents: 3, weight: 5),
    Item(name: "Threaded rod M8 1m", priceCents: 245, weight: 3),
    Item(name: "Cable tie 200mm", priceCents: 5, weight: 5),
    Item(name: "Pallet wrap 500mm", priceCents: 1450, weight: 6),
    Item(name: "Pallet wrap 250mm hand roll", priceCents: 690, weight: 3),
    Item(name: "Packing tape 48mm", priceCents: 185, weight: 6),
    Item(name: "Fragile tape 48mm", priceCents: 260, weight: 2),
    Item(name: "Carton 400x300x300", priceCents: 95, weight: 6),
    Item(name: "Carton 600x400x400", priceCents: 160, weight: 5),
    Item(name: "Bubble wrap 750mm x 100m", priceCents: 2380, weight: 3),
    Item(name: "Void fill paper roll", priceCents: 3150, weight: 2),
    Item(name: "Euro pallet 1200x800", priceCents: 1290, weight: 5),
    Item(name: "UK pallet 1200x1000", priceCents: 1475, weight: 4),
    Item(name: "Label roll 100x150", priceCents: 820, weight: 4),
    Item(name: "Thermal ribbon 110mm", priceCents: 640, weight: 2),
    Item(name: "Safety gloves L", priceCents: 275, weight: 5),
    Item(name: "Safety gloves M", priceCents: 275, weight: 4),
    Item(name: "Cut-resistant gloves XL", priceCents: 690, weight: 2),
    Item(name: "Hi-vis vest L", priceCents: 350, weight: 3),
    Item(name: "Safety boots size 42", priceCents: 4995, weight: 2),
    Item(name: "Hard hat white", priceCents: 780, weight: 2),
    Item(name: "Ear defenders", priceCents: 1260, weight: 2),
    Item(name: "Dust mask FFP2", priceCents: 110, weight: 4),
    Item(name: "Safety glasses clear", priceCents: 240, weight: 3),
    Item(name: "First aid kit 20 person", priceCents: 2650, weight: 1),
    Item(name: "Copy paper A4 80gsm", priceCents: 455, weight: 4),
    Item(name: "Printer toner black", priceCents: 6899, weight: 1),
    Item(name: "Hand sanitiser 5L", priceCents: 1895, weight: 2),
    Item(name: "Blue roll 2-ply", priceCents: 325, weight: 4),
    Item(name: "Bin liners 90L", priceCents: 1150, weight: 3),
    Item(name: "Degreaser 5L", priceCents: 1675, weight: 2),
    Item(name: "Floor marking tape yellow", priceCents: 890, weight: 2),
    Item(name: "Cable drum 50m 2.5mm", priceCents: 6450, weight: 1),
    Item(name: "LED batten 1500mm", priceCents: 2799, weight: 2),
    Item(name: "Extension lead 4-way", priceCents: 1299, weight: 2),
    Item(name: "AA batteries (pack of 24)", priceCents: 1099, weight: 2),
    Item(name: "Padlock 40mm", priceCents: 845, weight: 2),
    Item(name: "Ratchet strap 5m", priceCents: 995, weight: 3),
    Item(name: "Lashing strap 10m", priceCents: 1425, weight: 2),
    Item(name: "Corner protector 50mm", priceCents: 18, weight: 4),
    Item(name: "Steel strapping 16mm", priceCents: 3850, weight: 1),
    Item(name: "Spill kit 120L", priceCents: 11900, weight: 1),
    Item(name: "Plastic crate 60L", priceCents: 1480, weight: 3),
    Item(name: "Small parts bin size 3", priceCents: 215, weight: 3),
    Item(name: "Shelving unit 5-tier", priceCents: 8900, weight: 1),
    Item(name: "Sack truck", priceCents: 7450, weight: 1),
    Item(name: "Pallet truck 2.5t", priceCents: 31900, weight: 1),
    Item(name: "Pallet racking beam 2700mm", priceCents: 4650, weight: 1),
    Item(name: "Forklift battery 48V", priceCents: 245_000, weight: 1),
    Item(name: "Mezzanine floor panel", priceCents: 128_500, weight: 1),
    Item(name: "Dock leveller seal", priceCents: 104_900, weight: 1),
    Item(name: "Cable reel stand", priceCents: 5625, weight: 1),
    Item(name: "Spray paint grey 400ml", priceCents: 575, weight: 2),
  ]

  /// Draws an index into `customers` by weight.
  static let customerChoice = WeightedChoice(customers.indices.map { ($0, customers[$0].weight) })

  /// Draws an index into `items` by weight.
  static let itemChoice = WeightedChoice(items.indices.map { ($0, items[$0].weight) })

  static let carriers = [
    "DHL", "DPD", "UPS", "Royal Mail", "Kuehne + Nagel", "DB Schenker", "Own fleet", "Palletways",
  ]

  static let destinations = [
    "Leeds, GB", "Manchester, GB", "Bristol, GB", "Glasgow, GB", "Birmingham, GB", "London, GB",
    "Dublin, IE", "Hamburg, DE", "München, DE", "Rotterdam, NL", "Lyon, FR", "Malmö, SE",
    "Bergen, NO", "Kraków, PL", "Zürich, CH", "Ōsaka, JP",
  ]
}
