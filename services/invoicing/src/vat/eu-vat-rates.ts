/**
 * Historic VAT rates of the EU member states, the project's own table (DESIGN §6).
 *
 * Written from the public dataset ibericode/vat-rates (vat-rates.json, version 4, last change
 * 2025-08-12), used under the MIT licence:
 *
 *   Copyright 2019 Danny van Kooten. Permission is hereby granted, free of charge, to any person
 *   obtaining a copy of this software and associated documentation files (the "Software"), to deal in
 *   the Software without restriction, including without limitation the rights to use, copy, modify,
 *   merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
 *   to whom the Software is furnished to do so, subject to the following conditions: The above
 *   copyright notice and this permission notice shall be included in all copies or substantial
 *   portions of the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.
 *
 * Postcode exceptions (territories outside the VAT area) are not
 * carried. A period runs from `from` to `to` inclusive; `from: null` means "since before the data
 * begins", `to: null` "still in force". Rates are percent, as decimal strings.
 *
 * A rate change is a new period, never an edit of an old one: documents with an earlier tax point
 * keep the earlier rate. Changes after 2025-08-12 must be added here as new periods.
 */

export interface VatRatePeriod {
  /** First day in force (`YYYY-MM-DD`), or null for "since before the data begins". */
  readonly from: string | null;
  /** Last day in force, or null while in force. */
  readonly to: string | null;
  readonly standard: string;
  /** Reduced, super-reduced, parking and press rates, distinct, ascending. */
  readonly reduced: readonly string[];
}

/** EU member states (ISO 3166-1 alpha-2; Greece is `GR`, its VAT numbers use `EL`). GB is not one. */
export const EU_MEMBER_STATES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
] as const;

export const EU_VAT_RATES: Readonly<Record<string, readonly VatRatePeriod[]>> = {
  AT: [
    { from: null, to: '2015-12-31', standard: '20', reduced: ['10', '12'] },
    { from: '2016-01-01', to: null, standard: '20', reduced: ['10', '13'] },
  ],
  BE: [{ from: null, to: null, standard: '21', reduced: ['6', '12'] }],
  BG: [{ from: null, to: null, standard: '20', reduced: ['9'] }],
  CY: [{ from: null, to: null, standard: '19', reduced: ['5', '9'] }],
  CZ: [
    { from: null, to: '2023-12-31', standard: '21', reduced: ['10', '15'] },
    { from: '2024-01-01', to: null, standard: '21', reduced: ['12'] },
  ],
  DE: [
    { from: null, to: '2020-06-30', standard: '19', reduced: ['7'] },
    { from: '2020-07-01', to: '2020-12-31', standard: '16', reduced: ['5'] },
    { from: '2021-01-01', to: null, standard: '19', reduced: ['7'] },
  ],
  DK: [{ from: null, to: null, standard: '25', reduced: [] }],
  EE: [
    { from: null, to: '2023-12-31', standard: '20', reduced: ['9'] },
    { from: '2024-01-01', to: '2024-12-31', standard: '22', reduced: ['5', '9'] },
    { from: '2025-01-01', to: '2025-06-30', standard: '22', reduced: ['9', '13'] },
    { from: '2025-07-01', to: null, standard: '24', reduced: ['9', '13'] },
  ],
  ES: [{ from: null, to: null, standard: '21', reduced: ['4', '10'] }],
  FI: [
    { from: null, to: '2024-08-31', standard: '24', reduced: ['10', '14'] },
    { from: '2024-09-01', to: null, standard: '25.5', reduced: ['10', '14'] },
  ],
  FR: [
    { from: null, to: '2011-12-31', standard: '19.6', reduced: ['2.1', '5.5'] },
    { from: '2012-01-01', to: '2013-12-31', standard: '19.6', reduced: ['2.1', '5.5', '7'] },
    { from: '2014-01-01', to: null, standard: '20', reduced: ['2.1', '5.5', '10'] },
  ],
  GR: [
    { from: null, to: '2015-12-31', standard: '23', reduced: ['6.5', '13'] },
    { from: '2016-01-01', to: '2016-05-31', standard: '23', reduced: ['6', '13.5'] },
    { from: '2016-06-01', to: null, standard: '24', reduced: ['6', '13'] },
  ],
  HR: [{ from: null, to: null, standard: '25', reduced: ['5', '13'] }],
  HU: [{ from: null, to: null, standard: '27', reduced: ['5', '18'] }],
  IE: [
    { from: null, to: '2020-08-31', standard: '23', reduced: ['4.8', '9', '13.5'] },
    { from: '2020-09-01', to: '2021-02-28', standard: '21', reduced: ['4.8', '9', '13.5'] },
    { from: '2021-03-01', to: null, standard: '23', reduced: ['4.8', '9', '13.5'] },
  ],
  IT: [{ from: null, to: null, standard: '22', reduced: ['4', '5', '10'] }],
  LT: [{ from: null, to: null, standard: '21', reduced: ['5', '9'] }],
  LU: [
    { from: null, to: '2014-12-31', standard: '15', reduced: ['3', '6', '12'] },
    { from: '2015-01-01', to: '2015-12-31', standard: '17', reduced: ['3', '8', '12', '14'] },
    { from: '2016-01-01', to: '2022-12-31', standard: '17', reduced: ['3', '8', '13'] },
    { from: '2023-01-01', to: '2023-12-31', standard: '16', reduced: ['3', '7', '13'] },
    { from: '2024-01-01', to: null, standard: '17', reduced: ['3', '8', '14'] },
  ],
  LV: [{ from: null, to: null, standard: '21', reduced: ['5', '12'] }],
  MT: [{ from: null, to: null, standard: '18', reduced: ['5', '7'] }],
  NL: [
    { from: null, to: '2012-09-30', standard: '19', reduced: ['6'] },
    { from: '2012-10-01', to: '2018-12-31', standard: '21', reduced: ['6'] },
    { from: '2019-01-01', to: null, standard: '21', reduced: ['9'] },
  ],
  PL: [{ from: null, to: null, standard: '23', reduced: ['5', '8'] }],
  PT: [{ from: null, to: null, standard: '23', reduced: ['6', '13'] }],
  RO: [
    { from: null, to: '2015-12-31', standard: '24', reduced: ['5', '9'] },
    { from: '2016-01-01', to: '2016-12-31', standard: '20', reduced: ['5', '9'] },
    { from: '2017-01-01', to: '2025-07-31', standard: '19', reduced: ['5', '9'] },
    { from: '2025-08-01', to: null, standard: '21', reduced: ['11'] },
  ],
  SE: [{ from: null, to: null, standard: '25', reduced: ['6', '12'] }],
  SI: [{ from: null, to: null, standard: '22', reduced: ['5', '9.5'] }],
  SK: [
    { from: null, to: '2010-12-31', standard: '19', reduced: ['10'] },
    { from: '2011-01-01', to: '2024-12-31', standard: '20', reduced: ['10'] },
    { from: '2025-01-01', to: null, standard: '23', reduced: ['5', '19'] },
  ],
};
