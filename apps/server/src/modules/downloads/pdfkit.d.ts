/** The part of pdfkit the export layout measures text with (pdfmake draws with the same fonts); no types ship. */
declare module 'pdfkit' {
  export default class PDFDocument {
    constructor(options?: { autoFirstPage?: boolean });
    font(name: string): this;
    fontSize(size: number): this;
    widthOfString(text: string): number;
  }
}
