/**
 * The currencies an order may be in (contract §5), each with its ISO 4217 minor unit: how many digits an amount has
 * after the decimal point. Every amount (`totalCents`, `unitCents`, a charge's `cents`) is a whole number of the
 * currency's minor unit — pence for GBP, cents for EUR, yen for JPY (which has none), fils for BHD (a thousandth) —
 * and the field names keep "cents" for all of them.
 */
export const currencyMinorDigits = {
  GBP: 2,
  EUR: 2,
  USD: 2,
  CHF: 2,
  PLN: 2,
  SEK: 2,
  DKK: 2,
  NOK: 2,
  CZK: 2,
  JPY: 0,
  KRW: 0,
  BHD: 3,
  KWD: 3,
  JOD: 3,
  OMR: 3,
} as const;

export type Currency = keyof typeof currencyMinorDigits;
export const currencies = Object.keys(currencyMinorDigits) as Currency[];

export const isCurrency = (code: string): code is Currency => Object.hasOwn(currencyMinorDigits, code);

/** Why a currency code is not one an order may be in, or undefined when it is. */
export function currencyProblem(code: string): string | undefined {
  return isCurrency(code)
    ? undefined
    : `${JSON.stringify(code)} is not a currency orders are kept in: use one of ${currencies.join(", ")} (ISO 4217).`;
}

/** An amount in minor units as a number of the major unit: 150050 JPY is 150050, 12345 BHD is 12.345, 2400 GBP 24. */
export function majorUnits(currency: Currency, minor: number): number {
  return minor / 10 ** currencyMinorDigits[currency];
}
